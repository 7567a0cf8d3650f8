import Dispatch
import Testing
import TouchDelivery

@testable import TouchdDaemon

/// The live clock with hostile deadlines (issue #20): a scene's timeout may be any positive number
/// (`stuckTouchTimeout: 1e300`, a tap's `maximumTapDuration`), and arming the dispatch timer for it
/// must not trap converting the delay to nanoseconds.
@Suite struct DispatchClockTests {
  @Test("a deadline 1e300 s away arms the timer (for at most a day) without trapping, and still fires in order")
  func farDeadline() {
    let queue = DispatchQueue(label: "clock test")
    let clock = DispatchClock(queue: queue)
    var fired: [String] = []
    queue.sync {
      let far = clock.schedule(at: clock.now + 1e300) { fired.append("far") }
      _ = clock.schedule(at: clock.now + .infinity) { fired.append("infinite") }
      _ = clock.schedule(at: clock.now - 1) { fired.append("due") }
      #expect(clock.hasPendingTimers)
      clock.runDueTimers()
      #expect(fired == ["due"])
      #expect(far.isPending)
      far.cancel()
    }
    #expect(DispatchClock.longestArm == 86_400)
  }

  @Test("a held time line stands at its origin and fires nothing until released, then runs on from the origin")
  func heldTimeLine() {
    let queue = DispatchQueue(label: "clock test")
    let clock = DispatchClock(queue: queue, origin: 100, held: true)
    let fired = DispatchSemaphore(value: 0)
    var firedAt: Double?
    queue.sync {
      #expect(clock.isHeld)
      _ = clock.schedule(at: 100.05) {
        firedAt = clock.now
        fired.signal()
      }
    }
    // Held: well past the deadline's 50 ms, the timer has not fired and the clock has not moved.
    #expect(fired.wait(timeout: .now() + .milliseconds(300)) == .timedOut)
    queue.sync {
      #expect(clock.now == 100)
      clock.runDueTimers()
      #expect(firedAt == nil)
      clock.release()
      #expect(!clock.isHeld)
      #expect(clock.now >= 100 && clock.now < 110)
    }
    #expect(fired.wait(timeout: .now() + .seconds(10)) == .success)
    queue.sync { #expect((firedAt ?? 0) >= 100.05) }
    // A clock without an origin (live input) is never held.
    #expect(!DispatchClock(queue: queue, held: true).isHeld)
  }

  @Test("a frame is handled at its time and a timer fires at its deadline, as on the virtual clock")
  func framesAndTimersReadTheirOwnTime() {
    let queue = DispatchQueue(label: "clock test")
    let clock = DispatchClock(queue: queue)
    queue.sync {
      let start = clock.now
      var seen: [String: Double] = [:]
      // A frame stamped 50 ms ago: the timer it arms counts from the stamp, and the timer due
      // before the stamp fires first, reading its own deadline.
      _ = clock.schedule(at: start - 0.08) { seen["due"] = clock.now }
      clock.handling(at: start - 0.05) {
        seen["frame"] = clock.now
        _ = clock.schedule(at: clock.now + 0.01) { seen["armed"] = clock.now }
      }
      #expect(seen["due"] == start - 0.08)
      #expect(seen["frame"] == start - 0.05)
      #expect(clock.now >= start, "between frames the clock runs on")
      // Due by now (armed at the stamp + 10 ms, 40 ms ago): it fires reading its deadline.
      clock.runDueTimers()
      #expect(seen["armed"] == start - 0.05 + 0.01)
      // A stamp ahead of the clock (not the kernel's) is taken at the clock's time.
      clock.handling(at: start + 3600) { seen["ahead"] = clock.now }
      #expect((seen["ahead"] ?? .infinity) < start + 60)
    }
  }

  /// The dispatch timer wakes ``DispatchClock/settleTime`` after the deadline, so a frame the kernel
  /// stamped before the deadline and still copies into evdev's buffer is read first
  /// (``DispatchClock/willRunTimers``); the timer still reads its deadline.
  @Test("the dispatch timer wakes 1 ms after a deadline, reads the devices, and the timer reads its deadline")
  func theTimerWakesAfterTheSettleTime() {
    let queue = DispatchQueue(label: "clock test")
    let clock = DispatchClock(queue: queue)
    let fired = DispatchSemaphore(value: 0)
    var readAt: Double?
    var firedAt: (now: Double, monotonic: Double)?
    var deadline = 0.0
    queue.sync {
      clock.willRunTimers = { readAt = DispatchClock.monotonic() }
      deadline = clock.now + 0.02
      _ = clock.schedule(at: deadline) {
        firedAt = (clock.now, DispatchClock.monotonic())
        fired.signal()
      }
    }
    #expect(fired.wait(timeout: .now() + .seconds(10)) == .success)
    queue.sync {
      #expect(DispatchClock.settleTime == 0.001)
      #expect(firedAt?.now == deadline)
      #expect((readAt ?? 0) >= deadline + DispatchClock.settleTime)
      #expect((firedAt?.monotonic ?? 0) >= (readAt ?? .infinity))
    }
  }
}
