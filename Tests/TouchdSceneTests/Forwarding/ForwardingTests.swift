import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Issue #25: forwarding the touches no recognizer claims to a virtual touchscreen. Each test
/// replays a scripted recording (re-encoded for protocol A and single touch where the gesture
/// allows) against a forwarding window and checks every event the virtual device gets, frame by
/// frame (``forwardLines(_:)``). The window is 1000 x 800 points on 0...4095 axes:
/// (400, 320) is (1638, 1638) in device units.
@Suite("Forwarding to a virtual touchscreen (issue #25)")
struct ForwardingTests {
  typealias P = FingerScript.Point

  /// A three-finger hold and a left-edge swipe on the root view, as in config/kiosk-forward.yaml.
  static let kiosk = forwardScene([
    "{id: admin, type: longPress, action: admin, numberOfTouchesRequired: 3, minimumPressDuration: 1, allowableMovement: 40}",
    "{id: back, type: screenEdgePan, action: back, edges: left}",
  ])

  func script() -> FingerScript { FingerScript(windowWidth: 1000, windowHeight: 800, start: 1) }

  @Test(
    "an unclaimed tap goes down and up in the input's own frames, at their times and positions",
    arguments: SyntheticDeviceKind.allCases)
  func unclaimedTap(kind: SyntheticDeviceKind) throws {
    let s = script()
    let f = s.down([P(x: 400, y: 320)])
    s.wait(0.05)
    s.move(f, to: [P(x: 410, y: 330)])
    s.wait(0.05)
    s.up(f)
    let result = try forwarded(kind.encode(s.recording), Self.kiosk)
    #expect(
      result.frames == [
        "1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638",
        "1.050000 x=\(fx(410)) y=\(fy(330)) ax=\(fx(410)) ay=\(fy(330))",
        "1.100000 up touch=0",
      ])
    #expect(result.actions.isEmpty)
    #expect(result.counters == "forwarded 1 held 0 released 0 cancelled 0 noSlot 0")
  }

  @Test(
    "an edge swipe that recognizes (delaysTouchesBegan) is never forwarded", arguments: SyntheticDeviceKind.allCases)
  func recognizedEdgeSwipeIsNeverForwarded(kind: SyntheticDeviceKind) throws {
    let s = script()
    let f = s.down([P(x: 5, y: 320)])
    s.animate(f, duration: 0.2) { _, t in P(x: 5 + 200 * t, y: 320) }
    s.up(f)
    let result = try forwarded(kind.encode(s.recording), Self.kiosk)
    #expect(result.frames == [])
    #expect(result.actions.first == "back began")
    #expect(result.actions.last == "back ended")
    #expect(result.counters == "forwarded 0 held 1 released 0 cancelled 0 noSlot 0")
  }

  @Test(
    "an edge swipe that fails goes down at its first position, then one catch-up motion, then live",
    arguments: SyntheticDeviceKind.allCases)
  func failedEdgeSwipeIsReleased(kind: SyntheticDeviceKind) throws {
    let s = script()
    let f = s.down([P(x: 5, y: 320)])
    s.wait(0.05)
    s.move(f, to: [P(x: 6, y: 330)])  // 10 pt along the edge: still undecided, held
    s.wait(0.05)
    s.move(f, to: [P(x: 7, y: 350)])  // 30 pt along it, 2 pt in: the edge pan fails
    s.wait(0.05)
    s.move(f, to: [P(x: 7, y: 380)])
    s.wait(0.05)
    s.up(f)
    let result = try forwarded(kind.encode(s.recording), Self.kiosk)
    #expect(
      result.frames == [
        "1.100000 id=0 x=\(fx(5)) y=1638 touch=1 ax=\(fx(5)) ay=1638",
        "1.100001 x=\(fx(7)) y=\(fy(350)) ax=\(fx(7)) ay=\(fy(350))",
        "1.150000 y=\(fy(380)) ay=\(fy(380))",
        "1.200000 up touch=0",
      ])
    #expect(result.actions.isEmpty)
    #expect(result.counters == "forwarded 1 held 1 released 1 cancelled 0 noSlot 0")
  }

  @Test(
    "a held touch released at its lift goes down in one frame and lifts in the next, 1 µs later",
    arguments: SyntheticDeviceKind.allCases)
  func releasedAtLiftIsSplit(kind: SyntheticDeviceKind) throws {
    let s = script()
    let f = s.down([P(x: 5, y: 320)])
    s.wait(0.05)
    s.up(f)
    let result = try forwarded(kind.encode(s.recording), Self.kiosk)
    #expect(
      result.frames == [
        "1.050000 id=0 x=\(fx(5)) y=1638 touch=1 ax=\(fx(5)) ay=1638",
        "1.050001 up touch=0",
      ])
  }

  @Test(
    "a lift held by delaysTouchesEnded lifts when the recognizer fails",
    arguments: SyntheticDeviceKind.allCases)
  func heldLiftReleasedAtFailure(kind: SyntheticDeviceKind) throws {
    let s = script()
    s.tap(at: P(x: 400, y: 320))
    let scene = forwardScene(["{id: double, type: tap, action: double, numberOfTapsRequired: 2}"])
    let result = try forwarded(kind.encode(s.recording), scene)
    // The double tap fails maximumIntervalBetweenTaps (0.35 s) after the lift at 1.05 s.
    #expect(
      result.frames == [
        "1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638",
        "1.400000 up touch=0",
      ])
  }

  @Test(
    "a double tap that recognizes cancels the forwarded first tap and never forwards the second",
    arguments: SyntheticDeviceKind.allCases)
  func recognizedDoubleTapCancelsTheFirstTap(kind: SyntheticDeviceKind) throws {
    let s = script()
    s.doubleTap(at: P(x: 400, y: 320))
    let scene = forwardScene(["{id: double, type: tap, action: double, numberOfTapsRequired: 2}"])
    let result = try forwarded(kind.encode(s.recording), scene)
    // Taps at 1.0–1.05 and 1.2–1.25: the second touch-down is held behind the first tap's held lift.
    #expect(
      result.frames == ["1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638", "1.250000 palm", "1.250001 up touch=0"])
    #expect(result.actions == ["double ended"])
    // The second touch-down waits behind the first tap's held lift: held, never released.
    #expect(result.counters == "forwarded 1 held 1 released 0 cancelled 1 noSlot 0")
  }

  @Test(
    "a touch-down held past its lift (double tap with delaysTouchesBegan) goes down and up when the recognizer fails",
    arguments: SyntheticDeviceKind.allCases)
  func heldPastTheLift(kind: SyntheticDeviceKind) throws {
    let s = script()
    s.tap(at: P(x: 400, y: 320))
    let scene = forwardScene([
      "{id: double, type: tap, action: double, numberOfTapsRequired: 2, delaysTouchesBegan: true}"
    ])
    let result = try forwarded(kind.encode(s.recording), scene)
    #expect(result.frames == ["1.400000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638", "1.400001 up touch=0"])
    #expect(result.counters == "forwarded 1 held 1 released 1 cancelled 0 noSlot 0")
  }

  /// Three fingers at (400, 320), (480, 320), (560, 320) from 1 s, lifted at 2.5 s.
  func threeFingerHold() -> FingerScript {
    let s = script()
    let f = s.down([P(x: 400, y: 320), P(x: 480, y: 320), P(x: 560, y: 320)])
    s.wait(1.5)
    s.up(f)
    return s
  }

  static let threeDown =
    "1.000000 id=0 x=1638 y=1638 slot=1 id=1 x=\(fx(480)) y=1638 slot=2 id=2 x=\(fx(560)) y=1638 touch=1 ax=1638 ay=1638"

  @Test(
    "a three-finger hold claims forwarded touches: palm in one frame, lift in the next",
    arguments: [SyntheticDeviceKind.protocolB, .protocolA])
  func holdCancelsForwardedTouches(kind: SyntheticDeviceKind) throws {
    let result = try forwarded(kind.encode(threeFingerHold().recording), Self.kiosk)
    #expect(
      result.frames == [
        Self.threeDown,
        "2.000000 slot=0 palm slot=1 palm slot=2 palm",
        "2.000001 slot=0 up slot=1 up slot=2 up touch=0",
      ])
    #expect(result.actions == ["admin began", "admin ended"])
    #expect(result.counters == "forwarded 3 held 0 released 0 cancelled 3 noSlot 0")
  }

  @Test(
    "with cancelsTouchesInView false a recognized hold leaves its touches forwarded",
    arguments: [SyntheticDeviceKind.protocolB, .protocolA])
  func holdWithoutCancelKeepsTouches(kind: SyntheticDeviceKind) throws {
    let scene = forwardScene([
      "{id: admin, type: longPress, action: admin, numberOfTouchesRequired: 3, minimumPressDuration: 1, cancelsTouchesInView: false}"
    ])
    let result = try forwarded(kind.encode(threeFingerHold().recording), scene)
    #expect(result.frames == [Self.threeDown, "2.500000 slot=0 up slot=1 up slot=2 up touch=0"])
    #expect(result.actions == ["admin began", "admin ended"])
  }

  @Test(
    "a pan that recognizes on a move cancels the forwarded touch after that move: the move, then palm, then lift",
    arguments: SyntheticDeviceKind.allCases)
  func panClaimsOnAMove(kind: SyntheticDeviceKind) throws {
    let scene = forwardScene(["{id: drag, type: pan, action: drag}"])
    let s = script()
    let f = s.down([P(x: 400, y: 320)])
    s.wait(0.05)
    s.move(f, to: [P(x: 404, y: 320)])  // under the pan's 10-point hysteresis: forwarded, nothing claims
    s.wait(0.05)
    s.move(f, to: [P(x: 440, y: 320)])  // the pan begins here and claims the touch
    s.wait(0.05)
    s.move(f, to: [P(x: 480, y: 320)])
    s.wait(0.05)
    s.up(f)
    let result = try forwarded(kind.encode(s.recording), scene)
    // The motion of the claiming frame left before the frame was delivered (forwardAhead): the
    // compositor gets it, then the cancel in frames of their own at the same input time.
    #expect(
      result.frames == [
        "1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638",
        "1.050000 x=\(fx(404)) ax=\(fx(404))",
        "1.100000 x=\(fx(440)) ax=\(fx(440))",
        "1.100000 palm",
        "1.100001 up touch=0",
      ])
    #expect(result.actions.first == "drag began")
    #expect(result.actions.last == "drag ended")
    #expect(result.counters == "forwarded 1 held 0 released 0 cancelled 1 noSlot 0")
  }

  @Test("a forwarded touch's motion leaves before its frame is delivered: before the frame's own action")
  func motionLeavesBeforeDelivery() throws {
    let scene = try Scene.parse(forwardScene(["{id: drag, type: pan, action: drag, cancelsTouchesInView: false}"]))
    let clock = VirtualClock(now: 0)
    var actions: [String] = []
    let runtime = SceneRuntime(scene: scene, clock: clock) { message in
      if case .action(let a) = message { actions.append("\(a.action) \(a.state ?? "")") }
    }
    // Each virtual frame with the actions fired before it was written.
    var written: [(frame: [String], actionsBefore: [String])] = []
    runtime.addForwarding(of: SyntheticTouchscreen.description, source: 1, inWindow: 0) {
      written.append((forwardLines($0), actions))
    }
    drive(
      runtime, clock: clock, touch: TouchID(rawValue: 3), source: 1,
      steps: [(1.0, .began, 0.4), (1.05, .moved, 0.44), (1.1, .moved, 0.48)])
    #expect(
      written.map(\.frame) == [
        ["1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638"], ["1.050000 x=1802 ax=1802"],
        ["1.100000 x=1966 ax=1966"],
      ])
    // The pan began in the frame at 1.05 and changed in the one at 1.1: each frame's motion was
    // written before that frame's action, and the touch stays forwarded (cancelsTouchesInView false).
    #expect(written.map(\.actionsBefore) == [[], [], ["drag began"]])
    #expect(actions == ["drag began", "drag changed"])
  }

  @Test("a device that vanishes cancels its forwarded touch", arguments: SyntheticDeviceKind.allCases)
  func vanishedDeviceCancels(kind: SyntheticDeviceKind) throws {
    let s = script()
    s.down([P(x: 400, y: 320)])
    let result = try forwarded(kind.encode(s.recording(vanishingAfter: 0.5)), Self.kiosk)
    #expect(
      result.frames == ["1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638", "1.500000 palm", "1.500001 up touch=0"])
  }

  @Test(
    "a SYN_DROPPED that loses a touch cancels it; the rest of it is not forwarded",
    arguments: SyntheticDeviceKind.allCases)
  func synDroppedCancels(kind: SyntheticDeviceKind) throws {
    let s = script()
    let f = s.down([P(x: 400, y: 320)])
    s.wait(0.4)
    s.move(f, to: [P(x: 420, y: 320)])
    s.wait(0.1)
    s.up(f)
    var recording = kind.encode(s.recording)
    let drop = Timestamp(microseconds: 1_200_000)
    let cut = try #require(recording.events.firstIndex { $0.time > drop })
    recording.events.insert(InputEvent(time: drop, type: EV.syn, code: SYN.dropped, value: 0), at: cut)
    let result = try forwarded(recording, Self.kiosk)
    #expect(
      result.frames == ["1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638", "1.200000 palm", "1.200001 up touch=0"])
  }

  @Test("a palm on the physical panel (MT_TOOL_PALM) cancels the forwarded touch; its lift sends nothing")
  func palmCancels() throws {
    var device = SyntheticTouchscreen.description
    device.events[EV.abs]?.insert(ABS.mtToolType)
    device.absInfo[ABS.mtToolType] = AbsInfo(minimum: 0, maximum: 2)
    func t(_ s: Double) -> Timestamp { Timestamp(microseconds: Int64((s * 1_000_000).rounded())) }
    let events = [
      (1.0, EV.abs, ABS.mtTrackingID, Int32(3)), (1.0, EV.abs, ABS.mtPositionX, 1638),
      (1.0, EV.abs, ABS.mtPositionY, 1638),
      (1.0, EV.key, BTN.touch, 1), (1.0, EV.syn, SYN.report, 0),
      (1.1, EV.abs, ABS.mtToolType, MTTool.palm), (1.1, EV.syn, SYN.report, 0),
      (1.2, EV.abs, ABS.mtTrackingID, -1), (1.2, EV.key, BTN.touch, 0), (1.2, EV.syn, SYN.report, 0),
    ].map { InputEvent(time: t($0.0), type: $0.1, code: $0.2, value: $0.3) }
    let result = try forwarded(Recording(description: device, events: events, source: "palm"), Self.kiosk)
    #expect(
      result.frames == ["1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638", "1.100000 palm", "1.100001 up touch=0"])
  }

  @Test(
    "a touch that hits no view is forwarded as it arrives, and cancelled when its device vanishes",
    arguments: SyntheticDeviceKind.allCases)
  func touchOnNoViewIsForwarded(kind: SyntheticDeviceKind) throws {
    // The root view covers the left half: (800, 320) hits nothing, so no recognizer can hold it.
    let scene = Self.kiosk.replacingOccurrences(
      of: "frame: {x: 0, y: 0, width: 1000, height: 800}", with: "frame: {x: 0, y: 0, width: 500, height: 800}")
    let s = script()
    let f = s.down([P(x: 800, y: 320)])
    s.wait(0.05)
    s.move(f, to: [P(x: 810, y: 320)])
    s.wait(0.05)
    s.up(f)
    s.wait(0.1)
    s.down([P(x: 800, y: 320)])
    let result = try forwarded(kind.encode(s.recording(vanishingAfter: 0.2)), scene)
    #expect(
      result.frames == [
        "1.000000 id=0 x=\(fx(800)) y=1638 touch=1 ax=\(fx(800)) ay=1638",
        "1.050000 x=\(fx(810)) ax=\(fx(810))",
        "1.100000 up touch=0",
        // The slot's y is still 1638: the kernel would drop it, so it is not sent.
        "1.200000 id=1 x=\(fx(800)) touch=1 ax=\(fx(800))",
        "1.400000 palm",
        "1.400001 up touch=0",
      ])
  }

  @Test("a runtime driven frame by frame sends a timer's forwarded frame right after the timer, with no flush call")
  func timerTurnSendsItsOwnFrame() throws {
    let scene = try Scene.parse(forwardScene(["{id: double, type: tap, action: double, numberOfTapsRequired: 2}"]))
    let clock = VirtualClock(now: 0)
    let runtime = SceneRuntime(scene: scene, clock: clock) { _ in }
    var sent: [InputEvent] = []
    let description = runtime.addForwarding(of: SyntheticTouchscreen.description, source: 7, inWindow: 0) {
      sent += $0
    }
    #expect(description?.name == "touchd synthetic touchscreen (touchd)")
    drive(
      runtime, clock: clock, touch: TouchID(rawValue: 42), source: 7, steps: [(1.0, .began, 0.4), (1.05, .ended, 0.4)])
    #expect(forwardLines(sent) == ["1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638"])
    clock.advance(to: 1.39)
    #expect(forwardLines(sent).count == 1)
    clock.advance(to: 1.5)  // the double tap fails at 1.4 and releases the held lift
    #expect(forwardLines(sent) == ["1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638", "1.400000 up touch=0"])
    var counters = ForwardCounters()
    counters.forwarded = 1
    #expect(runtime.forwardCounters(source: 7) == counters)
    #expect(runtime.forwardCounters(source: 8) == nil)
    #expect(runtime.forwarding?.trackedTouchCount == 0)
  }

  @Test(
    "the daemon's order when a device or the scene goes: cancel, flush, remove: the palm and the lift leave, then nothing"
  )
  func removeAfterCancel() throws {
    let scene = try Scene.parse(forwardScene(["{id: hold, type: longPress, action: hold, numberOfTouchesRequired: 3}"]))
    let clock = VirtualClock(now: 0)
    let runtime = SceneRuntime(scene: scene, clock: clock) { _ in }
    var sent: [InputEvent] = []
    runtime.addForwarding(of: SyntheticTouchscreen.description, source: 3, inWindow: 0) { sent += $0 }
    func frame(_ time: Double, _ phase: TouchPhase) -> TouchFrame {
      TouchFrame(
        time: Timestamp(microseconds: Int64((time * 1_000_000).rounded())),
        contacts: [Contact(id: TouchID(rawValue: 5), phase: phase, x: 0.4, y: 0.4)])
    }
    clock.advance(to: 1)
    runtime.handle(frame(1, .began), inWindow: 0, source: 3)
    clock.advance(to: 1.2)
    runtime.application.cancelTouches()  // a reload, or touchd stopping
    runtime.flushForwarding()
    runtime.removeForwarding(source: 3)
    #expect(
      forwardLines(sent) == [
        "1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638", "1.200000 palm", "1.200001 up touch=0",
      ])
    #expect(runtime.forwardCounters(source: 3) == nil)
    #expect(runtime.forwarding?.trackedTouchCount == 0)
    // Frames from the removed source no longer reach any virtual device.
    let before = sent.count
    clock.advance(to: 2)
    runtime.handle(frame(2, .began), inWindow: 0, source: 3)
    runtime.handle(frame(2.05, .ended), inWindow: 0, source: 3)
    clock.runUntilIdle()
    #expect(sent.count == before)
  }

  @Test(
    "a new scene that keeps the virtual touchscreen writes on from the device's state: the slot, the tool type after a palm, the tracking ids"
  )
  func newSceneContinuesTheDevice() throws {
    let scene = try Scene.parse(forwardScene(["{id: hold, type: longPress, action: hold, numberOfTouchesRequired: 3}"]))
    let clock = VirtualClock(now: 0)
    func frame(_ time: Double, _ contacts: [(UInt64, TouchPhase, Double)]) -> TouchFrame {
      TouchFrame(
        time: Timestamp(microseconds: Int64((time * 1_000_000).rounded())),
        contacts: contacts.map { Contact(id: TouchID(rawValue: $0.0), phase: $0.1, x: $0.2, y: 0.4) })
    }
    // The old scene: two fingers down, then the reload cancels them (palm, lift in each slot).
    let old = SceneRuntime(scene: scene, clock: clock) { _ in }
    var sent: [InputEvent] = []
    old.addForwarding(of: SyntheticTouchscreen.description, source: 3, inWindow: 0) { sent += $0 }
    clock.advance(to: 1)
    old.handle(frame(1, [(5, .began, 0.4), (6, .began, 0.6)]), inWindow: 0, source: 3)
    clock.advance(to: 1.2)
    old.application.cancelTouches()
    old.flushForwarding()
    // The new scene goes on on the same device: back to slot 0, its tool type back to finger, the
    // next tracking id; y is the slot's last, so not sent again (the kernel would drop it).
    func tap(_ runtime: SceneRuntime, at time: Double, continuing previous: SceneRuntime?) -> [String] {
      var events: [InputEvent] = []
      runtime.addForwarding(of: SyntheticTouchscreen.description, source: 3, inWindow: 0, continuing: previous) {
        events += $0
      }
      clock.advance(to: time)
      runtime.handle(frame(time, [(7, .began, 0.5)]), inWindow: 0, source: 3)
      clock.advance(to: time + 0.05)
      runtime.handle(frame(time + 0.05, [(7, .ended, 0.5)]), inWindow: 0, source: 3)
      return forwardLines(events)
    }
    #expect(
      forwardLines(sent) == [
        "1.000000 id=0 x=1638 y=1638 slot=1 id=1 x=2457 y=1638 touch=1 ax=1638 ay=1638",
        "1.200000 slot=0 palm slot=1 palm", "1.200001 slot=0 up slot=1 up touch=0",
      ])
    let new = SceneRuntime(scene: scene, clock: clock) { _ in }
    #expect(
      tap(new, at: 2, continuing: old) == ["2.000000 slot=0 finger id=2 x=2048 touch=1 ax=2048", "2.050000 up touch=0"])
    #expect(new.forwardCounters(source: 3)?.forwarded == 1)
    // Without `continuing`, a fresh encoder writes into the kernel's current slot 1 as a palm.
    let fresh = SceneRuntime(scene: scene, clock: clock) { _ in }
    #expect(
      tap(fresh, at: 3, continuing: nil) == [
        "3.000000 id=0 x=2048 y=1638 touch=1 ax=2048 ay=1638", "3.050000 up touch=0",
      ])
  }

  @Test("a recognized edge swipe driven frame by frame sends nothing and leaves nothing behind")
  func recognizedSwipeLeavesNothingBehind() throws {
    let clock = VirtualClock(now: 0)
    let runtime = SceneRuntime(scene: try Scene.parse(Self.kiosk), clock: clock) { _ in }
    var sent: [InputEvent] = []
    runtime.addForwarding(of: SyntheticTouchscreen.description, source: 0, inWindow: 0) { sent += $0 }
    drive(
      runtime, clock: clock, touch: TouchID(rawValue: 9), source: 0,
      steps: [
        (1.0, .began, 0.005), (1.01, .moved, 0.05), (1.02, .moved, 0.1), (1.03, .moved, 0.2), (1.04, .ended, 0.2),
      ])
    clock.runUntilIdle()
    #expect(sent.isEmpty)
    #expect(runtime.forwardCounters(source: 0)?.held == 1)
    #expect(runtime.forwarding?.trackedTouchCount == 0)
  }

  @Test("a window without forward: forwards nothing, and a replay makes no virtual device")
  func noForwardNoDevice() throws {
    let s = script()
    s.tap(at: P(x: 400, y: 320))
    let yaml = Self.kiosk.replacingOccurrences(of: "forward: {}", with: "")
    #expect(try ScenePlayer.forwarded([s.recording], scene: Scene.parse(yaml)) == [])
  }

  @Test("two windows on two devices: one virtual device each, each with its window's rotation and calibration")
  func twoWindowsTwoDevices() throws {
    var leftDevice = SyntheticTouchscreen.description
    leftDevice.name = "left panel"
    var rightDevice = SyntheticTouchscreen.description
    rightDevice.name = "right panel"
    rightDevice.absInfo[ABS.mtSlot] = AbsInfo(minimum: 0, maximum: 3)
    func tap(_ device: DeviceDescription, at start: Double, x: Int32, y: Int32) -> Recording {
      func t(_ s: Double) -> Timestamp { Timestamp(microseconds: Int64((s * 1_000_000).rounded())) }
      let events = [
        (start, EV.abs, ABS.mtTrackingID, Int32(7)), (start, EV.abs, ABS.mtPositionX, x),
        (start, EV.abs, ABS.mtPositionY, y), (start, EV.key, BTN.touch, 1), (start, EV.syn, SYN.report, 0),
        (start + 0.1, EV.abs, ABS.mtTrackingID, -1), (start + 0.1, EV.key, BTN.touch, 0),
        (start + 0.1, EV.syn, SYN.report, 0),
      ].map { InputEvent(time: t($0.0), type: $0.1, code: $0.2, value: $0.3) }
      return Recording(description: device, events: events, source: device.name)
    }
    let yaml = """
      version: 1
      windows:
        - id: left
          size: {width: 1000, height: 800}
          devices: ["left panel"]
          rotation: 90
          forward: {name: "Left (virtual)"}
          views: [{id: l, frame: {x: 0, y: 0, width: 1000, height: 800}}]
        - id: right
          size: {width: 1000, height: 800}
          devices: ["right panel"]
          calibration: [1, 0, 0.05, 0, 1, 0]
          forward: {}
          views: [{id: r, frame: {x: 0, y: 0, width: 1000, height: 800}}]
      """
    let devices = try ScenePlayer.forwarded(
      [tap(leftDevice, at: 1, x: 1000, y: 3000), tap(rightDevice, at: 1.05, x: 1000, y: 2000)],
      scene: Scene.parse(yaml))
    try #require(devices.count == 2)
    #expect(devices.map(\.source) == [0, 1])
    #expect(devices.map(\.window) == ["left", "right"])
    #expect(devices.map(\.recording.description.name) == ["Left (virtual)", "right panel (touchd)"])
    #expect(devices.map { $0.recording.description.absInfo[ABS.mtSlot]?.maximum } == [9, 3])
    // Rotated 90° clockwise: device (x, y) is window (1 - y, x), normalized.
    #expect(
      forwardLines(devices[0].recording.events) == [
        "1.000000 id=0 x=1095 y=1000 touch=1 ax=1095 ay=1000", "1.100000 up touch=0",
      ])
    // Calibrated x' = x + 0.05: unit 1000 is 1000.5 of 4096, plus 0.05 * 4096 = 1205.3: unit 1205.
    #expect(
      forwardLines(devices[1].recording.events) == [
        "1.050000 id=0 x=1205 y=2000 touch=1 ax=1205 ay=2000", "1.150000 up touch=0",
      ])
  }

  @Test("two windows on a protocol A and a single-touch panel: a held edge swipe on one never holds a tap on the other")
  func twoKindsTwoWindows() throws {
    let left = script()
    let f = left.down([P(x: 5, y: 320)])
    left.wait(0.05)
    left.move(f, to: [P(x: 6, y: 330)])
    left.wait(0.05)
    left.move(f, to: [P(x: 7, y: 350)])  // the edge pan fails: released
    left.wait(0.1)
    left.up(f)
    let right = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1.02)
    right.tap(at: P(x: 400, y: 320))
    let root = """
      views:
            - id: ROOT
              frame: {x: 0, y: 0, width: 1000, height: 800}
              multipleTouchEnabled: true
              recognizers:
                - {id: ROOT-hold, type: longPress, action: hold, numberOfTouchesRequired: 3}
                - {id: ROOT-back, type: screenEdgePan, action: back, edges: left}
      """
    let yaml = """
      version: 1
      windows:
        - id: left
          size: {width: 1000, height: 800}
          devices: ["*protocol A*"]
          forward: {}
          \(root.replacingOccurrences(of: "ROOT", with: "l"))
        - id: right
          size: {width: 1000, height: 800}
          devices: ["*single-touch*"]
          forward: {}
          \(root.replacingOccurrences(of: "ROOT", with: "r"))
      """
    let devices = try ScenePlayer.forwarded(
      [SyntheticDeviceKind.protocolA.encode(left.recording), SyntheticDeviceKind.singleTouch.encode(right.recording)],
      scene: Scene.parse(yaml))
    try #require(devices.count == 2)
    #expect(devices.map(\.window) == ["left", "right"])
    #expect(
      devices.map(\.recording.description.name) == [
        "touchd synthetic protocol A touchscreen (touchd)", "touchd synthetic single-touch touchscreen (touchd)",
      ])
    #expect(devices.map { $0.recording.description.absInfo[ABS.mtSlot]?.maximum } == [9, 0])
    #expect(
      forwardLines(devices[0].recording.events) == [
        "1.100000 id=0 x=\(fx(5)) y=1638 touch=1 ax=\(fx(5)) ay=1638",
        "1.100001 x=\(fx(7)) y=\(fy(350)) ax=\(fx(7)) ay=\(fy(350))",
        "1.200000 up touch=0",
      ])
    #expect(
      forwardLines(devices[1].recording.events) == [
        "1.020000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638", "1.070000 up touch=0",
      ])
  }

  @Test("the forwarded recording reads back through EvemuParser and FrameAssembler as the touches forwarded")
  func roundTrip() throws {
    let devices = try ScenePlayer.forwarded([threeFingerHold().recording], scene: Scene.parse(Self.kiosk))
    let forwarded = try #require(devices.first).recording
    let text = EvemuWriter.write(forwarded)
    let parsed = try EvemuParser.parse(Array(text.utf8), source: "forwarded.evemu")
    #expect(parsed.description == forwarded.description)
    #expect(parsed.events == forwarded.events)
    #expect(parsed.notTouchscreenMessage == nil)
    #expect(parsed.description.touchProtocol == .slots(10))
    // touchd itself reads the virtual device as three touches down, then cancelled by the palm.
    let assembler = FrameAssembler(device: parsed.description, ids: TouchIDAllocator())
    var frames: [String] = []
    for event in parsed.events {
      guard let frame = assembler.process(event) else { continue }
      frames.append("\(frame.time) " + frame.contacts.map { "\($0.id):\($0.phase.rawValue)" }.joined(separator: " "))
    }
    #expect(frames == ["1.000000 1:began 2:began 3:began", "2.000000 1:cancelled 2:cancelled 3:cancelled"])
  }
}
