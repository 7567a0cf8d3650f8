/// The time source of the delivery pipeline and the only way recognizers schedule timeouts.
///
/// Live, the daemon's run loop implements it on CLOCK_MONOTONIC with one DispatchSourceTimer that is
/// armed only while a timer is pending. In replay and tests, ``VirtualClock`` moves only when told
/// to, so every outcome is deterministic.
///
/// Times are seconds on the same clock as the frames' kernel timestamps.
public protocol TouchClock: AnyObject {
  /// The current time in seconds.
  var now: Double { get }
  /// Runs `action` once when the clock reaches `deadline`. The returned timer can cancel it.
  func schedule(at deadline: Double, _ action: @escaping () -> Void) -> ScheduledTimer
  /// The deadline of the earliest timer still pending, nil when none is.
  var nextDeadline: Double? { get }
}

/// A pending timeout; ``cancel()`` stops it from firing. Cancelling a fired timer does nothing.
public final class ScheduledTimer {
  public let deadline: Double
  /// The order of scheduling: timers with equal deadlines fire in this order.
  public let sequence: UInt64
  var action: (() -> Void)?

  /// A timer for a ``TouchClock`` implementation to keep; it runs `action` on ``fire()``.
  /// `sequence` orders timers with equal deadlines (scheduling order).
  public init(deadline: Double, sequence: UInt64, action: @escaping () -> Void) {
    self.deadline = deadline
    self.sequence = sequence
    self.action = action
  }

  /// Whether the timer is still waiting to fire.
  public var isPending: Bool { action != nil }

  public func cancel() { action = nil }

  /// Runs the action if still pending; a timer fires at most once. Called by the clock.
  public func fire() {
    guard let action else { return }
    self.action = nil
    action()
  }
}

/// A clock that stands still until ``advance(to:)`` moves it, firing due timers in deadline order.
///
/// Replay drives it with the frames' timestamps: before a frame at time T is delivered, the clock
/// advances to T, so a long press that began at 1.0 fires at exactly 1.5 and no later frame can
/// overtake it.
public final class VirtualClock: TouchClock {
  public private(set) var now: Double
  private var timers: [ScheduledTimer] = []
  private var nextSequence: UInt64 = 0

  public init(now: Double = 0) { self.now = now }

  public func schedule(at deadline: Double, _ action: @escaping () -> Void) -> ScheduledTimer {
    let timer = ScheduledTimer(deadline: deadline, sequence: nextSequence, action: action)
    nextSequence += 1
    timers.append(timer)
    return timer
  }

  /// The earliest deadline still pending, if any.
  public var nextDeadline: Double? {
    timers.lazy.filter(\.isPending).map(\.deadline).min()
  }

  /// Moves time forward to `time`, firing every timer due by then, earliest first. A timer's action
  /// sees `now` equal to its own deadline, and timers it schedules fire too if they fall due.
  /// Time never goes backwards: an earlier `time` fires what is due and leaves `now` unchanged.
  public func advance(to time: Double) {
    while let next = popDue(by: time) {
      if next.deadline > now { now = next.deadline }
      next.fire()
    }
    if time > now { now = time }
  }

  /// Fires every pending timer, however far ahead, as at the end of a replay.
  public func runUntilIdle() {
    while let deadline = nextDeadline { advance(to: deadline) }
  }

  private func popDue(by time: Double) -> ScheduledTimer? {
    timers.removeAll { !$0.isPending }
    var best: Int?
    for (i, t) in timers.enumerated() where t.deadline <= time {
      if let b = best {
        let bt = timers[b]
        if t.deadline < bt.deadline || (t.deadline == bt.deadline && t.sequence < bt.sequence) { best = i }
      } else {
        best = i
      }
    }
    guard let best else { return nil }
    return timers.remove(at: best)
  }
}
