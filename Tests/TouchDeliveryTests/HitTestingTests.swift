import Testing
import TouchdInput

@testable import TouchDelivery

/// Seed 001's override: subviews outside the superview's bounds are hit too.
final class OverflowHitView: View {
  override func hitTest(_ point: Point, with event: TouchEvent?) -> View? {
    if let result = super.hitTest(point, with: event) { return result }
    guard !isHidden, isUserInteractionEnabled, alpha > 0.01 else { return nil }
    for sub in subviews.reversed() {
      if let result = sub.hitTest(convert(point, to: sub), with: event) { return result }
    }
    return nil
  }
}

@Suite("Hit-testing") struct HitTestingTests {
  let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400))

  @Test("the deepest view containing the point wins, and the frontmost sibling is asked first")
  func deepestFrontmostWins() {
    let a = View(frame: Rect(x: 10, y: 10, width: 200, height: 200))
    let back = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    let front = View(frame: Rect(x: 50, y: 50, width: 100, height: 100))
    let leaf = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
    window.addSubview(a)
    a.addSubview(back)
    a.addSubview(front)
    front.addSubview(leaf)
    #expect(window.hitTest(Point(x: 65, y: 65), with: nil) === front)
    #expect(window.hitTest(Point(x: 75, y: 75), with: nil) === leaf)
    #expect(window.hitTest(Point(x: 30, y: 30), with: nil) === back)
    #expect(window.hitTest(Point(x: 300, y: 300), with: nil) === window)
    #expect(window.hitTest(Point(x: 400, y: 10), with: nil) == nil)
  }

  @Test("hidden, non-interactive and alpha <= 0.01 views are skipped with their subtrees")
  func invisibleViewsAreSkipped() {
    let a = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    let b = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
    window.addSubview(a)
    a.addSubview(b)
    let p = Point(x: 10, y: 10)
    #expect(window.hitTest(p, with: nil) === b)
    b.isHidden = true
    #expect(window.hitTest(p, with: nil) === a)
    b.isHidden = false
    b.alpha = 0.01
    #expect(window.hitTest(p, with: nil) === a)
    b.alpha = 0.02
    #expect(window.hitTest(p, with: nil) === b)
    a.isUserInteractionEnabled = false
    #expect(window.hitTest(p, with: nil) === window)
    a.isUserInteractionEnabled = true
    a.alpha = 0
    #expect(window.hitTest(p, with: nil) === window)
  }

  @Test("hitTestOutset enlarges the area point(inside:) accepts on every side")
  func outsetEnlargesTheTarget() {
    let small = View(frame: Rect(x: 100, y: 100, width: 20, height: 20))
    window.addSubview(small)
    #expect(window.hitTest(Point(x: 95, y: 110), with: nil) === window)
    small.hitTestOutset = 10
    #expect(window.hitTest(Point(x: 95, y: 110), with: nil) === small)
    #expect(window.hitTest(Point(x: 129, y: 129), with: nil) === small)
    #expect(window.hitTest(Point(x: 131, y: 110), with: nil) === window)
  }

  @Test("point(inside:) tests bounds in the view's own coordinates, not the frame")
  func pointInsideUsesBounds() {
    let v = View(frame: Rect(x: 100, y: 100, width: 50, height: 50))
    #expect(v.point(inside: Point(x: 10, y: 10), with: nil))
    #expect(!v.point(inside: Point(x: 120, y: 120), with: nil))
    v.bounds.origin = Point(x: 200, y: 0)
    #expect(v.point(inside: Point(x: 210, y: 10), with: nil))
    #expect(!v.point(inside: Point(x: 10, y: 10), with: nil))
  }

  @Test("a subview outside a non-clipping superview is not hit unless the superview overrides hitTest")
  func overflowingSubviewNeedsOverride() {
    let plain = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    let outside = View(frame: Rect(x: 150, y: 0, width: 50, height: 50))
    window.addSubview(plain)
    plain.addSubview(outside)
    #expect(window.hitTest(Point(x: 160, y: 10), with: nil) === window)

    let overriding = OverflowHitView(frame: Rect(x: 0, y: 200, width: 100, height: 100))
    let outside2 = View(frame: Rect(x: 150, y: 0, width: 50, height: 50))
    window.addSubview(overriding)
    overriding.addSubview(outside2)
    #expect(window.hitTest(Point(x: 160, y: 210), with: nil) === outside2)
    #expect(window.hitTest(Point(x: 10, y: 210), with: nil) === overriding)
  }

  @Test("conversions go through the window and honour bounds origins")
  func conversions() {
    let a = View(frame: Rect(x: 10, y: 20, width: 100, height: 100))
    let b = View(frame: Rect(x: 5, y: 5, width: 10, height: 10))
    window.addSubview(a)
    a.addSubview(b)
    #expect(b.convert(Point(x: 1, y: 1), to: nil) == Point(x: 16, y: 26))
    #expect(b.convert(Point(x: 16, y: 26), from: nil) == Point(x: 1, y: 1))
    a.bounds.origin = Point(x: 0, y: 50)
    #expect(b.convert(Point(x: 0, y: 0), to: a) == Point(x: 5, y: 5))
    #expect(b.convert(Point(x: 0, y: 0), to: nil) == Point(x: 15, y: -25))
  }

  @Test("a touch that hits nothing in its window is never delivered")
  func missIsNotDelivered() {
    let h = Harness()
    let recognizer = ScriptedRecognizer.tap("win", log: h.log)
    h.window.addGestureRecognizer(recognizer)
    h.window.isUserInteractionEnabled = false
    h.tap(1, 10, 10, at: 1)
    h.window.isUserInteractionEnabled = true
    h.frame(2, c(2, .began, 500, 10))
    h.frame(2.1, c(2, .moved, 10, 10))
    h.frame(2.2, c(2, .ended, 10, 10))
    #expect(h.log.lines == [])
    #expect(h.app.currentEvent == nil)
  }

  @Test("windows are searched front to back in screen coordinates")
  func windowsFrontToBack() {
    let h = Harness(window: Window(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
    let back = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    h.app.addWindow(back)
    let front = h.view("F", Rect(x: 0, y: 0, width: 100, height: 100))
    let rear = RecordingView("R", Rect(x: 0, y: 0, width: 400, height: 400), log: h.log)
    back.addSubview(rear)
    h.clock.advance(to: 1)
    h.app.handle(TouchFrame(time: Timestamp(seconds: 1, microseconds: 0), contacts: [c(1, .began, 50, 50)]))
    h.app.handle(TouchFrame(time: Timestamp(seconds: 1, microseconds: 1), contacts: [c(2, .began, 200, 200)]))
    #expect(h.log.lines == ["F.began(1)", "R.began(2)"])
    #expect(front.window === h.window)
    #expect(h.app.currentEvent?.allTouches.first { $0.id.rawValue == 2 }?.window === back)
  }
}
