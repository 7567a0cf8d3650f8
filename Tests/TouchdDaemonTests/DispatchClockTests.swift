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
}
