import Testing
import TouchdInput

@testable import TouchDelivery

/// Keeps every event and touch it is handed, to check identities.
final class KeepingView: View {
  var events: [TouchEvent] = []
  var touches: [Touch] = []
  var lines: [String] = []
  override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) { keep("began", touches, event) }
  override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) { keep("moved", touches, event) }
  override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) { keep("ended", touches, event) }
  override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) { keep("cancelled", touches, event) }
  private func keep(_ phase: String, _ touches: Set<Touch>, _ event: TouchEvent) {
    events.append(event)
    self.touches.append(contentsOf: touches.sorted { $0.id < $1.id })
    lines.append("\(phase)(\(ids(touches))) all(\(ids(event.allTouches)))")
  }
}

@Suite("Touches and events") struct EventModelTests {
  @Test("one TouchEvent instance spans a multitouch sequence; the next sequence gets a new one")
  func sameEventPerSequence() {
    let h = Harness()
    let v = KeepingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    v.isMultipleTouchEnabled = true
    h.window.addSubview(v)
    h.frame(1, c(1, .began, 10, 10))
    h.frame(1.1, c(1, .moved, 12, 10), c(2, .began, 50, 50))
    h.frame(1.2, c(1, .ended, 12, 10), c(2, .stationary, 50, 50))
    h.frame(1.3, c(2, .ended, 50, 50))
    h.frame(2, c(3, .began, 10, 10))
    #expect(
      v.lines == [
        "began(1) all(1)", "began(2) all(1,2)", "moved(1) all(1,2)", "ended(1) all(1,2)", "ended(2) all(2)",
        "began(3) all(3)",
      ])
    #expect(v.events.dropLast().allSatisfy { $0 === v.events[0] })
    #expect(v.events.last !== v.events[0])
    #expect(h.app.currentEvent === v.events.last)
  }

  @Test("one Touch instance follows a finger from down to up, with its view fixed at touch-down")
  func sameTouchPerFinger() {
    let h = Harness()
    let v = KeepingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    h.window.addSubview(v)
    h.frame(1, c(7, .began, 10, 20, radius: 4, force: 0.25))
    h.frame(1.5, c(7, .moved, 300, 300, radius: 6, force: 0.5))
    h.frame(2, c(7, .ended, 310, 305))
    #expect(v.lines == ["began(7) all(7)", "moved(7) all(7)", "ended(7) all(7)"])
    #expect(v.touches.allSatisfy { $0 === v.touches[0] })
    let t = v.touches[0]
    #expect(t.view === v)
    #expect(t.window === h.window)
    #expect(t.phase == .ended)
    #expect(t.timestamp == 2)
    #expect(t.location(in: nil) == Point(x: 310, y: 305))
    #expect(t.previousLocation(in: nil) == Point(x: 300, y: 300))
    #expect(t.majorRadius == 6)
    #expect(t.force == 0.5)
  }

  @Test("location(in:) and previousLocation(in:) are in the given view's coordinates")
  func locationsInViews() {
    let h = Harness()
    let v = KeepingView(frame: Rect(x: 100, y: 50, width: 100, height: 100))
    h.window.addSubview(v)
    h.frame(1, c(1, .began, 110, 60))
    h.frame(1.1, c(1, .moved, 130, 70))
    let t = v.touches[0]
    #expect(t.location(in: v) == Point(x: 30, y: 20))
    #expect(t.previousLocation(in: v) == Point(x: 10, y: 10))
    #expect(t.location(in: h.window) == Point(x: 130, y: 70))
  }

  @Test("an event in which every touch is stationary is not delivered")
  func stationaryOnlyEventIsNotDelivered() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 100, height: 100))
    let b = h.view("B", Rect(x: 200, y: 0, width: 100, height: 100))
    let r = ScriptedRecognizer("r", log: h.log)
    a.addGestureRecognizer(r)
    _ = b
    h.frame(1, c(1, .began, 10, 10), c(2, .began, 210, 10))
    h.frame(1.1, c(1, .stationary, 10, 10), c(2, .stationary, 210, 10))
    h.frame(1.2, c(1, .stationary, 10, 10), c(2, .moved, 220, 10))
    h.frame(1.3)
    #expect(h.log.lines == ["r.began(1)", "A.began(1)", "B.began(2)", "B.moved(2)"])
    #expect(h.app.currentEvent?.timestamp == 1.2)
  }

  @Test("touches(for:) selects by hit-test view, window and recognizer")
  func touchesForFilters() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 100, height: 100))
    let b = h.view("B", Rect(x: 200, y: 0, width: 100, height: 100))
    let r = ScriptedRecognizer("r", log: h.log)
    b.addGestureRecognizer(r)
    h.frame(1, c(1, .began, 10, 10), c(2, .began, 210, 10))
    let event = try! #require(h.app.currentEvent)
    #expect(ids(event.touches(for: a)) == "1")
    #expect(ids(event.touches(for: b)) == "2")
    #expect(ids(event.touches(for: h.window)) == "1,2")
    #expect(ids(event.touches(for: r)) == "2")
    #expect(event.touches(for: b).first?.gestureRecognizers.first === r)
    #expect(event.timestamp == 1)
  }

  @Test("tapCount counts successive nearby taps: 1, 2, 3")
  func tapCountCounts() {
    let h = Harness()
    let v = KeepingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    h.window.addSubview(v)
    h.tap(1, 100, 100, at: 1)
    h.tap(2, 110, 95, at: 1.3)
    h.tap(3, 100, 120, at: 1.6)
    #expect(v.touches.map(\.tapCount) == [1, 1, 2, 2, 3, 3])
  }

  @Test("fingers lifted in one frame: each finger's next tap continues its own count, in every process")
  func tapCountAfterSimultaneousLifts() {
    // Six fingers 60 pt apart (more than the 45 pt tap distance) lift together. Once the count of
    // the last finger to land was the one every re-tap continued (and before that fix, a Set's
    // order decided). Counts belong to places (UITouch.tapCount), so a re-tap near any finger is
    // that finger's second tap.
    var counts: [Int] = []
    for probe in 0..<6 {
      let h = Harness()
      let v = KeepingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
      h.window.addSubview(v)
      let down = (1...6).map { c(UInt64($0), .began, Double($0) * 60, 100) }
      let up = (1...6).map { c(UInt64($0), .ended, Double($0) * 60, 100) }
      h.clock.advance(to: 1)
      h.app.handle(TouchFrame(time: Timestamp(microseconds: 1_000_000), contacts: down))
      h.clock.advance(to: 1.05)
      h.app.handle(TouchFrame(time: Timestamp(microseconds: 1_050_000), contacts: up))
      h.tap(7, Double(probe + 1) * 60, 100, at: 1.2)
      counts.append(v.touches.last?.tapCount ?? 0)
    }
    #expect(counts == [2, 2, 2, 2, 2, 2])
  }

  @Test("tapCount per finger: two fingers double-tapping two places at once each count 2, then 3")
  func tapCountPerFinger() {
    let h = Harness()
    let v = KeepingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    v.isMultipleTouchEnabled = true  // both fingers reach it (UIKit's default is one)
    h.window.addSubview(v)
    for (i, t) in [1.0, 1.2, 1.4].enumerated() {
      let a = UInt64(10 * i + 1)
      let b = UInt64(10 * i + 2)
      h.frame(t, c(a, .began, 100, 100), c(b, .began, 300, 100))
      h.frame(t + 0.05, c(a, .ended, 100, 100), c(b, .ended, 300, 100))
    }
    var seen: [Touch] = []
    for t in v.touches where !seen.contains(t) { seen.append(t) }
    // Touches that begin in one frame reach the view as a set: compare as a set of id:count.
    #expect(Set(seen.map { "\($0.id.rawValue):\($0.tapCount)" }) == ["1:1", "2:1", "11:2", "12:2", "21:3", "22:3"])
    #expect(seen.count == 6)
  }

  @Test("tapCount: a tap elsewhere between two taps of a double tap does not reset it")
  func tapCountSurvivesATapElsewhere() {
    let h = Harness()
    let v = KeepingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    h.window.addSubview(v)
    h.tap(1, 100, 100, at: 1)
    h.tap(2, 300, 300, at: 1.15)  // elsewhere: its own first tap
    h.tap(3, 105, 100, at: 1.3)  // back at the first place: its second tap
    h.tap(4, 300, 305, at: 1.45)  // and the other place's second
    var seen: [Touch] = []
    for t in v.touches where !seen.contains(t) { seen.append(t) }
    #expect(seen.map(\.tapCount) == [1, 1, 2, 2])
  }

  @Test("tapCount starts again at 1 after the interval, beyond the distance, or after a drag")
  func tapCountResets() {
    let h = Harness()
    let v = KeepingView(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    h.window.addSubview(v)
    h.app.multipleTapInterval = 0.35
    h.app.multipleTapDistance = 45
    h.tap(1, 100, 100, at: 1)
    h.tap(2, 100, 100, at: 1.45)  // 0.35 s after the lift at 1.1: still counts
    h.tap(3, 100, 100, at: 1.91)  // 0.36 s after the lift at 1.55
    h.tap(4, 146, 100, at: 2.1)  // 46 pt away
    h.frame(2.3, c(5, .began, 146, 100))
    h.frame(2.35, c(5, .moved, 250, 100))
    h.frame(2.4, c(5, .ended, 250, 100))  // a drag, not a tap
    h.tap(6, 146, 100, at: 2.5)
    var seen: [Touch] = []
    for t in v.touches where !seen.contains(t) { seen.append(t) }
    // The drag's touch-down is a second tap; its lift breaks the run.
    #expect(seen.map(\.tapCount) == [1, 2, 1, 1, 2, 1])
  }

  @Test("cancelled contacts reach views and recognizers as touchesCancelled")
  func cancelledContactsAreDelivered() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 100, height: 100))
    a.addGestureRecognizer(ScriptedRecognizer("r", log: h.log))
    h.frame(1, c(1, .began, 10, 10))
    h.frame(1.1, c(1, .cancelled, 10, 10))
    #expect(h.log.take() == ["r.began(1)", "A.began(1)", "r.cancelled(1)", "A.cancelled(1)", "r.reset"])
    #expect(h.app.currentEvent == nil)
  }

  @Test("cancelTouches(in:) cancels the window's touches and ignores their contacts until they end")
  func cancelTouchesInWindow() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 100, height: 100))
    a.isMultipleTouchEnabled = true
    let r = ScriptedRecognizer("r", log: h.log)
    r.onEnded = { r, _ in r.state = .failed }
    a.addGestureRecognizer(r)
    h.frame(1, c(1, .began, 10, 10), c(2, .began, 20, 20))
    h.clock.advance(to: 1.5)
    h.app.cancelTouches(in: h.window)
    h.frame(1.6, c(1, .moved, 12, 10), c(2, .ended, 20, 20))
    h.frame(1.7, c(1, .ended, 12, 10))
    h.tap(3, 10, 10, at: 2)
    #expect(
      h.log.lines == [
        "r.began(1,2)", "A.began(1,2)", "r.cancelled(1,2)", "A.cancelled(1,2)", "r.reset",
        "r.began(3)", "A.began(3)", "r.ended(3)", "A.ended(3)", "r.reset",
      ])
  }
}
