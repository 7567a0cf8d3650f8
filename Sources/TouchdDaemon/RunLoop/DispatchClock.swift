import Dispatch
import TouchDelivery
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The live ``TouchClock``: CLOCK_MONOTONIC seconds (the clock of the kernel's event timestamps
/// once `EVIOCSCLOCKID` is set), with one `DispatchSourceTimer` that is armed only while a timer is
/// pending, so an idle daemon has no timer wake-ups.
///
/// For real-time replay the clock can run on the recording's time line: `now` is
/// `origin + (monotonic - start) * speed`. That time line can be held at `origin` until
/// ``release()`` (`touchd --wait-for-subscriber`).
///
/// While a frame is handled (``handling(at:_:)``) `now` reads the frame's time, the kernel's stamp,
/// and while a timer fires, its deadline: as replay's ``VirtualClock`` reads them. So a timer a touch
/// arms counts from the touch, and a message a timer sends carries the deadline, not the moment the
/// dispatch timer happened to run (later on a busy machine): live equals replay to the microsecond.
///
/// # Thread safety
/// Owned by the pipeline queue: call it, and it runs timers, only there.
public final class DispatchClock: TouchClock {
  private let queue: DispatchQueue
  private let source: DispatchSourceTimer
  private var timers: [ScheduledTimer] = []
  private var nextSequence: UInt64 = 0
  private var armedDeadline: Double?
  private let origin: Double
  private var start: Double
  private let speed: Double
  /// How many times the dispatch timer fired (for `status` and the idle benchmark).
  public private(set) var wakeups = 0
  /// Called when the dispatch timer fires, before any due timer runs. The daemon reads its devices
  /// here: input the kernel stamped before a deadline is then delivered before that timeout, as
  /// replay's virtual clock orders them, even when the input thread's wake-up lost the race.
  public var willRunTimers: (() -> Void)?
  /// Called after each timer fires. The daemon disarms its forwarding shortcuts here: a timer may
  /// change what the next frame does.
  public var didFireTimer: (() -> Void)?
  /// Whether the time line stands still at its origin: `now` does not move and no timer fires
  /// until ``release()``.
  public private(set) var isHeld: Bool
  /// The time of the frame being handled or the timer firing; nil between them.
  private var pinned: Double?

  /// A clock reading CLOCK_MONOTONIC, or, with `origin`, a time line that starts at `origin` now
  /// (or, `held`, when ``release()`` is called) and runs `speed` times as fast as real time.
  public init(queue: DispatchQueue, origin: Double? = nil, speed: Double = 1, held: Bool = false) {
    self.queue = queue
    self.start = Self.monotonic()
    self.origin = origin ?? start
    self.speed = speed
    self.isHeld = held && origin != nil
    source = DispatchSource.makeTimerSource(queue: queue)
    source.setEventHandler { [unowned self] in self.timerFired() }
    source.schedule(deadline: .distantFuture)
    source.activate()
  }

  deinit { source.cancel() }

  /// The longest the dispatch timer is armed for, in seconds.
  static let longestArm = 86_400.0

  /// How long after a deadline the dispatch timer wakes, in seconds of real time: 1 ms. The kernel
  /// stamps a frame when its SYN_REPORT is passed on (`input_get_timestamp`) and only then copies
  /// it into evdev's buffer and wakes the reader, so a frame stamped just before a deadline can
  /// still be on its way when a timer woken at the deadline reads the devices (``willRunTimers``):
  /// the timeout then went first, and live differed from replay (the VM's
  /// `live-equals-replay-zoom`, once in two runs: a touches message stamped 182 µs before the
  /// message published just ahead of it, in qemu's TCG, where kernel code runs about fifty times
  /// slower than on hardware; the reading of that failure is this race). Waking 1 ms later leaves
  /// such a frame time to arrive first. What a timer does still happens at its deadline (``now``
  /// reads it), and a frame arriving after a deadline first runs the timers due before it, as
  /// ever: only the wall-clock moment of a timeout with no input after it moves, by 1 ms.
  static let settleTime = 0.001

  /// Seconds on CLOCK_MONOTONIC.
  public static func monotonic() -> Double {
    let ts = SystemCalls.live.monotonicNow()
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }

  public var now: Double { pinned ?? running }

  /// The time line itself, whatever is being handled.
  private var running: Double { isHeld ? origin : origin + (Self.monotonic() - start) * speed }

  /// Runs `body` with `now` reading `time` (a frame's kernel stamp; at most the running time), after
  /// the timers due by then.
  public func handling<T>(at time: Double, _ body: () throws -> T) rethrows -> T {
    dispatchPrecondition(condition: .onQueue(queue))
    runDueTimers(upTo: time)
    let outer = pinned
    pinned = min(time, running)
    defer { pinned = outer }
    return try body()
  }

  /// Starts a held time line: `now` runs on from `origin`, and the timers due by then fire as it
  /// reaches them.
  public func release() {
    dispatchPrecondition(condition: .onQueue(queue))
    guard isHeld else { return }
    isHeld = false
    start = Self.monotonic()
    armedDeadline = nil
    rearm()
  }

  /// Whether a timer is pending (the dispatch timer is armed).
  public var hasPendingTimers: Bool { timers.contains(where: \.isPending) }

  public var nextDeadline: Double? { earliestIndex().map { timers[$0].deadline } }

  public func schedule(at deadline: Double, _ action: @escaping () -> Void) -> ScheduledTimer {
    dispatchPrecondition(condition: .onQueue(queue))
    let timer = ScheduledTimer(deadline: deadline, sequence: nextSequence, action: action)
    nextSequence += 1
    timers.append(timer)
    rearm()
    return timer
  }

  /// Runs every timer due by `time` (default: now), earliest first, then arms the dispatch timer
  /// for the next one (or disarms it). Called before a frame is delivered with the frame's time, so
  /// a timeout that fell due before the frame fires first.
  public func runDueTimers(upTo time: Double? = nil) {
    while true {
      timers.removeAll { !$0.isPending }
      let current = min(time ?? now, now)
      guard let index = earliestIndex(), timers[index].deadline <= current else { break }
      let timer = timers.remove(at: index)
      let outer = pinned
      pinned = timer.deadline
      timer.fire()
      pinned = outer
      didFireTimer?()
    }
    rearm()
  }

  private func timerFired() {
    wakeups += 1
    armedDeadline = nil
    willRunTimers?()
    runDueTimers()
  }

  private func earliestIndex() -> Int? {
    var best: Int?
    for (i, t) in timers.enumerated() where t.isPending {
      if let b = best, (timers[b].deadline, timers[b].sequence) <= (t.deadline, t.sequence) { continue }
      best = i
    }
    return best
  }

  private func rearm() {
    timers.removeAll { !$0.isPending }
    guard !isHeld, let index = earliestIndex() else {
      if armedDeadline != nil {
        source.schedule(deadline: .distantFuture)
        armedDeadline = nil
      }
      return
    }
    let deadline = timers[index].deadline
    if armedDeadline == deadline { return }
    armedDeadline = deadline
    // At most a day ahead: a far deadline (a scene's timeout of 1e300 s) must not overflow the
    // nanoseconds; the source then fires early, runs nothing and arms again.
    let delay = min(max(0, (deadline - running) / speed) + Self.settleTime, Self.longestArm)
    source.schedule(deadline: .now() + .nanoseconds(Int(delay * 1e9)), leeway: .microseconds(100))
  }
}
