import Testing

@testable import TouchDelivery

@Suite struct VirtualClockTests {
  @Test func firesDueTimersInDeadlineOrder() {
    let clock = VirtualClock(now: 1)
    var log: [String] = []
    _ = clock.schedule(at: 1.5) { log.append("b@\(clock.now)") }
    _ = clock.schedule(at: 1.2) { log.append("a@\(clock.now)") }
    let c = clock.schedule(at: 1.3) { log.append("cancelled") }
    c.cancel()
    clock.advance(to: 1.4)
    #expect(log == ["a@1.2"])
    #expect(clock.now == 1.4)
    clock.advance(to: 2)
    #expect(log == ["a@1.2", "b@1.5"])
    #expect(clock.nextDeadline == nil)
  }

  @Test func timerScheduledByATimerFiresWhenDue() {
    let clock = VirtualClock()
    var fired: [Double] = []
    _ = clock.schedule(at: 1) {
      fired.append(clock.now)
      _ = clock.schedule(at: 1.25) { fired.append(clock.now) }
    }
    clock.advance(to: 2)
    #expect(fired == [1, 1.25])
  }
}
