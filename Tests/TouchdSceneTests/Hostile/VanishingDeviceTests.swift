import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Issue #20, hostile devices: a device that vanishes while touches are down, under each recognizer
/// and on each kind of device. The recording stops mid-gesture (the device went away), so the replay
/// cancels the touches at its end, as the live daemon does when the read reports ENODEV
/// (`FrameFeed.removed`). Every touch ends `cancelled`, the recognizer ends cancelled (a gesture in
/// progress) or failed (one not yet recognized), and no action fires afterwards: each log below is
/// the whole replay, timers run out.
@Suite("Hostile devices: a device vanishes mid-gesture")
struct VanishingDeviceTests {
  typealias P = FingerScript.Point

  /// A view filling the window that publishes its touches and keeps them (`cancelsTouchesInView:
  /// false`), so the log shows the device's cancellation reach the view, with `recognizer`.
  func scene(_ recognizer: String) -> String {
    hostileScene(
      """
      - id: v
        frame: {x: 0, y: 0, width: 1000, height: 800}
        touches: true
        multipleTouchEnabled: true
        recognizers:
          - {\(recognizer), cancelsTouchesInView: false}
      """)
  }

  /// Runs `gesture` (which leaves fingers down) on a 1000 x 800 window from t = 10 s at 100 Hz, the
  /// device vanishing `vanish` seconds after its last frame, on `kind`; returns the log.
  func run(_ sceneYAML: String, on kind: SyntheticDeviceKind, vanish: Double, _ gesture: (FingerScript) -> Void)
    throws -> [String]
  {
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
    gesture(script)
    return try HostileRun(sceneYAML, kind.encode(script.recording(vanishingAfter: vanish))).log
  }

  /// Moves `fingers` through `steps`, one frame each, 10 ms apart.
  func steps(_ s: FingerScript, _ fingers: [Int], _ steps: [[P]]) {
    for points in steps {
      s.wait(0.01)
      s.move(fingers, to: points)
    }
  }

  static let allKinds = SyntheticDeviceKind.allCases
  static let multitouchKinds: [SyntheticDeviceKind] = [.protocolB, .protocolA]

  @Test("tap: the touch is cancelled before the lift, the tap fails, nothing fires", arguments: allKinds)
  func tap(kind: SyntheticDeviceKind) throws {
    let log = try run(scene("id: tap, type: tap, action: t"), on: kind, vanish: 0.05) { s in
      s.down([P(x: 500, y: 400)])
    }
    #expect(
      log == [
        "touches v began 1",
        "tap: possible → failed: a touch was cancelled",
        "touches v cancelled 1",
        "tap: failed → possible: reset: every touch it received has ended",
      ])
  }

  @Test("long press: recognized at 0.5 s, cancelled when the device vanishes at 0.7 s", arguments: allKinds)
  func longPress(kind: SyntheticDeviceKind) throws {
    let log = try run(scene("id: press, type: longPress, action: t"), on: kind, vanish: 0.7) { s in
      s.down([P(x: 500, y: 400)])
    }
    #expect(
      log == [
        "touches v began 1",
        "press: possible → began: held minimumPressDuration 0.5 s",
        "action press began @500",
        "press: began → cancelled: the recognizer set .cancelled",
        "action press cancelled @700",
        "touches v cancelled 1",
        "press: cancelled → possible: reset: every touch it received has ended",
      ])
  }

  @Test("pan: began and changed, then cancelled at the vanishing", arguments: allKinds)
  func pan(kind: SyntheticDeviceKind) throws {
    let log = try run(scene("id: pan, type: pan, action: t"), on: kind, vanish: 0.18) { s in
      let f = s.down([P(x: 500, y: 400)])
      steps(s, f, [[P(x: 520, y: 400)], [P(x: 540, y: 400)]])
    }
    #expect(
      log == [
        "touches v began 1",
        "pan: possible → began: moved (19.8, 0) pt: more than startDistance 10 along an axis",
        "action pan began @10",
        "touches v moved 1",
        "pan: began → changed: the recognizer set .changed",
        "action pan changed @20",
        "touches v moved 1",
        "pan: changed → cancelled: the recognizer set .cancelled",
        "action pan cancelled @200",
        "touches v cancelled 1",
        "pan: cancelled → possible: reset: every touch it received has ended",
      ])
  }

  @Test("swipe: not yet recognized (30 pt of 50), it fails; no swipe fires", arguments: allKinds)
  func swipe(kind: SyntheticDeviceKind) throws {
    let log = try run(scene("id: swipe, type: swipe, action: t"), on: kind, vanish: 0.08) { s in
      let f = s.down([P(x: 300, y: 400)])
      steps(s, f, [[P(x: 315, y: 400)], [P(x: 330, y: 400)]])
    }
    #expect(
      log == [
        "touches v began 1",
        "touches v moved 1",
        "touches v moved 1",
        "swipe: possible → failed: a touch was cancelled",
        "touches v cancelled 1",
        "swipe: failed → possible: reset: every touch it received has ended",
      ])
  }

  /// Two fingers 200 pt apart spread by 30 pt a frame.
  func spread(_ s: FingerScript) {
    let f = s.down([P(x: 400, y: 400), P(x: 600, y: 400)])
    steps(
      s, f,
      [
        [P(x: 385, y: 400), P(x: 615, y: 400)], [P(x: 370, y: 400), P(x: 630, y: 400)],
        [P(x: 355, y: 400), P(x: 645, y: 400)],
      ])
  }

  @Test("pinch: began and changed with two fingers, cancelled with both", arguments: multitouchKinds)
  func pinch(kind: SyntheticDeviceKind) throws {
    let log = try run(scene("id: pinch, type: pinch, action: t"), on: kind, vanish: 0.17, spread)
    #expect(
      log == [
        "touches v began 1,2",
        "pinch: possible → began: distance changed 30.3 pt > startDistance 8",
        "action pinch began @10",
        "touches v moved 1,2",
        "pinch: began → changed: the recognizer set .changed",
        "action pinch changed @20",
        "touches v moved 1,2",
        "action pinch changed @30",
        "touches v moved 1,2",
        "pinch: changed → cancelled: a touch was cancelled",
        "action pinch cancelled @200",
        "touches v cancelled 1,2",
        "pinch: cancelled → possible: reset: every touch it received has ended",
      ])
  }

  @Test("pinch on a single-touch device: one finger never begins a pinch; it fails")
  func pinchSingleTouch() throws {
    let log = try run(scene("id: pinch, type: pinch, action: t"), on: .singleTouch, vanish: 0.17, spread)
    #expect(
      log == [
        "touches v began 1",
        "touches v moved 1",
        "touches v moved 1",
        "touches v moved 1",
        "pinch: possible → failed: a touch was cancelled before it began",
        "touches v cancelled 1",
        "pinch: failed → possible: reset: every touch it received has ended",
      ])
  }

  @Test("rotation: began and changed, cancelled", arguments: multitouchKinds)
  func rotation(kind: SyntheticDeviceKind) throws {
    let log = try run(scene("id: rotate, type: rotation, action: t"), on: kind, vanish: 0.17) { s in
      let f = s.down([P(x: 400, y: 400), P(x: 600, y: 400)])
      steps(
        s, f,
        [
          [P(x: 400, y: 380), P(x: 600, y: 420)], [P(x: 402, y: 360), P(x: 598, y: 440)],
          [P(x: 405, y: 340), P(x: 595, y: 460)],
        ])
    }
    #expect(
      log == [
        "touches v began 1,2",
        "rotate: possible → began: turned 20.2 pt of arc > startDistance 10",
        "action rotate began @10",
        "touches v moved 1,2",
        "rotate: began → changed: the recognizer set .changed",
        "action rotate changed @20",
        "touches v moved 1,2",
        "action rotate changed @30",
        "touches v moved 1,2",
        "rotate: changed → cancelled: a touch was cancelled",
        "action rotate cancelled @200",
        "touches v cancelled 1,2",
        "rotate: cancelled → possible: reset: every touch it received has ended",
      ])
  }

  @Test("screen-edge pan: began from the left edge, cancelled", arguments: allKinds)
  func screenEdgePan(kind: SyntheticDeviceKind) throws {
    let log = try run(scene("id: edge, type: screenEdgePan, action: t, edges: left"), on: kind, vanish: 0.18) { s in
      let f = s.down([P(x: 5, y: 400)])
      steps(s, f, [[P(x: 25, y: 400)], [P(x: 45, y: 400)]])
    }
    // The edge pan delays the view's touchesBegan (UIKit's screen-edge recognizer has
    // delaysTouchesBegan) until it begins.
    #expect(
      log == [
        "edge: possible → began: moved (20, 0) pt: more than startDistance 15 along an axis",
        "action edge began @10",
        "touches v began 1",
        "touches v moved 1",
        "edge: began → changed: the recognizer set .changed",
        "action edge changed @20",
        "touches v moved 1",
        "edge: changed → cancelled: the recognizer set .cancelled",
        "action edge cancelled @200",
        "touches v cancelled 1",
        "edge: cancelled → possible: reset: every touch it received has ended",
      ])
  }

  @Test(
    "scroll view: its pan is cancelled, dragging ends without deceleration; the row never hears the touch",
    arguments: allKinds)
  func scrollView(kind: SyntheticDeviceKind) throws {
    let yaml = hostileScene(
      """
      - id: list
        frame: {x: 0, y: 0, width: 400, height: 800}
        scroll: {contentSize: {width: 400, height: 4000}}
        views:
          - {id: row, frame: {x: 0, y: 0, width: 400, height: 100}, touches: true}
      """)
    let log = try run(yaml, on: kind, vanish: 0.18) { s in
      let f = s.down([P(x: 200, y: 90)])
      steps(s, f, [[P(x: 200, y: 70)], [P(x: 200, y: 50)]])
    }
    #expect(
      log == [
        "list.pan: possible → began: moved (0, -19.9) pt: more than startDistance 10 along an axis",
        "scroll list willBeginDragging",
        "list.contentTouchDelay: possible → ended: the scroll view began dragging: the content never gets the touch",
        "list.pan: began → changed: the recognizer set .changed",
        "list.pan: changed → cancelled: the recognizer set .cancelled",
        "scroll list willEndDragging",
        "scroll list didEndDragging",
        "list.pan: cancelled → possible: reset: every touch it received has ended",
        "list.contentTouchDelay: ended → possible: reset: every touch it received has ended",
      ])
  }

  @Test(
    "button: touchDown and highlighted, then touchCancel and unhighlighted; never touchUpInside",
    arguments: allKinds)
  func button(kind: SyntheticDeviceKind) throws {
    let yaml = hostileScene(
      """
      - id: b
        frame: {x: 0, y: 0, width: 1000, height: 800}
        control: {type: button, actions: {touchDown: d, touchUpInside: u, touchCancel: c}}
      """)
    let log = try run(yaml, on: kind, vanish: 0.1) { s in s.down([P(x: 500, y: 400)]) }
    #expect(
      log == [
        "control b highlighted",
        "action b touchDown @0",
        "control b normal",
        "action b touchCancel @100",
      ])
  }
}
