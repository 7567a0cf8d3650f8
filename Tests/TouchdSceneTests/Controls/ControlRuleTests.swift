import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// UIControl's tracking through the whole pipeline (scene replay): the events in UIKit's order,
/// the 70 pt tracking tolerance, highlighted following the finger, disabled controls, the iOS 6
/// rule against superview recognizers, and each control type's value.
@Suite struct ControlRuleTests {
  /// A 200 x 60 button `buy` at (100, 100), every event mapped, on a panel `panel` filling the
  /// window; `panel` and `button` add keys to the panel's and the button's mappings.
  func buttonScene(panel: String = "", button: String = "") -> String {
    ruleScene(
      """
      - id: panel
        frame: {x: 0, y: 0, width: 1000, height: 800}
        \(panel)
        views:
          - id: buy
            frame: {x: 100, y: 100, width: 200, height: 60}
            control: {type: button, actions: \(everyEvent("buy"))\(button)}
      """)
  }

  // MARK: Button tracking

  @Test func aTapSendsTouchDownThenTouchUpInsideAndThePrimaryAction() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 200, y: 130))
    let run = try RuleRun(buttonScene(), s)
    #expect(run.events(of: "buy") == ["touchDown", "touchUpInside", "primaryActionTriggered"])
    #expect(run.controlActions.map(\.action) == ["buy-touchDown", "buy-touchUpInside", "buy-primaryActionTriggered"])
    #expect(
      run.controlActions.allSatisfy {
        $0.control == "button" && $0.controlValue == ControlValue.none && $0.window == "w"
      })
    // The pressed state comes first, in the touch-down's frame; the lift clears it before touchUpInside.
    #expect(run.messages.map(\.type) == ["control", "action", "control", "action", "action"])
    #expect(run.highlights(of: "buy") == ["H", "-"])
    #expect(run.controlStates[0].time == run.controlActions[0].time)
    #expect(abs(run.controlActions[1].time - run.controlActions[0].time - 0.05) < 1e-9)
  }

  @Test func slideOffAndBackFollowsTheSeventyPointToleranceAndLiftsInside() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 200, y: 130)])
    for x in [250.0, 365, 375, 420, 350] {
      s.wait(0.02)
      s.move(f, to: [.init(x: x, y: 130)])
    }
    s.wait(0.02)
    s.up(f)
    let run = try RuleRun(buttonScene(), s)
    // The button's right edge is at 300: 365 is within 70 pt (inside), 375 beyond (outside).
    #expect(
      run.events(of: "buy") == [
        "touchDown", "touchDragInside", "touchDragInside", "touchDragOutside", "touchDragExit", "touchDragOutside",
        "touchDragInside", "touchDragEnter", "touchUpInside", "primaryActionTriggered",
      ])
    #expect(run.highlights(of: "buy") == ["H", "-", "H", "-"])
  }

  @Test func liftingOutsideSendsTouchUpOutsideAndNoPrimaryAction() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 200, y: 130)])
    s.wait(0.02)
    s.move(f, to: [.init(x: 200, y: 300)])  // 140 pt below the bottom edge
    s.wait(0.02)
    s.up(f)
    let run = try RuleRun(buttonScene(), s)
    #expect(run.events(of: "buy") == ["touchDown", "touchDragOutside", "touchDragExit", "touchUpOutside"])
    #expect(run.highlights(of: "buy") == ["H", "-"])
  }

  @Test func aSecondQuickTapSendsTouchDownRepeat() throws {
    let s = ruleScript()
    s.doubleTap(at: .init(x: 200, y: 130))
    let run = try RuleRun(buttonScene(), s)
    #expect(
      run.events(of: "buy") == [
        "touchDown", "touchUpInside", "primaryActionTriggered",
        "touchDown", "touchDownRepeat", "touchUpInside", "primaryActionTriggered",
      ])
  }

  @Test func aSuperviewPanCancelsTheButtonsTouch() throws {
    let s = ruleScript()
    // 20 pt a frame: the first move is past the pan's 10 pt whatever the panel's rounding (10 pt a
    // frame came out at 9.96 pt through the device units, and the button heard a drag first).
    s.drag(from: .init(x: 200, y: 130), to: .init(x: 200, y: 330), duration: 0.1)
    let run = try RuleRun(
      buttonScene(panel: "recognizers: [{id: pan, type: pan, action: pan-panel}]"), s)
    #expect(run.actionLog.first == "pan:began")
    // The pan begins after 10 pt (before any drag event reached the button): touchCancel, no up.
    #expect(run.events(of: "buy") == ["touchDown", "touchCancel"])
    #expect(run.highlights(of: "buy") == ["H", "-"])
    let cancel = try #require(run.controlActions.last)
    let began = try #require(run.actions.first)
    #expect(cancel.time == began.time)
  }

  @Test func aDisabledButtonSendsNothingAndPassesNothingOn() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 200, y: 130))
    s.wait(0.5)
    s.tap(at: .init(x: 600, y: 500))
    let run = try RuleRun(buttonScene(panel: "touches: true", button: ", enabled: false"), s)
    #expect(run.controlActions.isEmpty)
    #expect(run.controlStates.isEmpty)
    // The panel (the button's superview, which handles touches) hears only the tap beside the button.
    #expect(run.touchesLog.count == 2)
    #expect(run.touches.allSatisfy { $0.touches.first?.view == "panel" })
  }

  // MARK: The iOS 6 rule

  @Test func aButtonsTapWinsOverASuperviewsSingleTap() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 200, y: 130))
    s.wait(0.5)
    s.tap(at: .init(x: 600, y: 500))
    let run = try RuleRun(
      buttonScene(panel: "recognizers: [{id: tap, type: tap, action: tap-panel}]"), s, trace: true)
    #expect(run.events(of: "buy") == ["touchDown", "touchUpInside", "primaryActionTriggered"])
    // Only the tap beside the button fires the panel's recognizer.
    #expect(run.actions.count == 1)
    #expect(near(run.actions.first?.locationPoint, Point(x: 600, y: 500), within: 0.125))
    #expect(
      run.causes.contains(
        "tap: possible → failed: control 'buy' gestureRecognizerShouldBegin false (its default action wins)"))
  }

  @Test func aDisabledButtonLetsTheSuperviewsTapFire() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 200, y: 130))
    let run = try RuleRun(
      buttonScene(panel: "recognizers: [{id: tap, type: tap, action: tap-panel}]", button: ", enabled: false"), s)
    #expect(run.actionLog == ["tap:ended"])
    #expect(run.controlActions.isEmpty)
  }

  @Test func aSuperviewsDoubleTapIsNotTheButtonsDefaultActionAndRecognizes() throws {
    let s = ruleScript()
    s.doubleTap(at: .init(x: 200, y: 130))
    let run = try RuleRun(
      buttonScene(panel: "recognizers: [{id: double, type: tap, action: zoom, numberOfTapsRequired: 2}]"), s)
    #expect(run.actionLog == ["double:ended"])
    // The double tap holds the first lift back from the button (delaysTouchesEnded), the second
    // touch waits behind it, and the recognition takes both (cancelsTouchesInView): the button
    // hears touchDown and then touchCancel, never an up.
    #expect(run.events(of: "buy") == ["touchDown", "touchCancel"])
  }

  // MARK: Slider

  /// A slider `volume` 428 x 40 at (100, 300): the thumb's centre travels 400 pt, from x 114 to 514.
  func sliderScene(_ extra: String = "", panel: String = "") -> String {
    ruleScene(
      """
      - id: panel
        frame: {x: 0, y: 0, width: 1000, height: 800}
        \(panel)
        views:
          - id: volume
            frame: {x: 100, y: 300, width: 428, height: 40}
            control: {type: slider, actions: \(everyEvent("volume"))\(extra)}
      """)
  }

  @Test func aContinuousSliderSendsValueChangedAsTheThumbTracksTheFinger() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 120, y: 320)])  // on the thumb, 6 pt right of its centre
    for x in [320.0, 620, 420] {
      s.wait(0.02)
      s.move(f, to: [.init(x: x, y: 320)])
    }
    s.wait(0.02)
    s.up(f)
    let run = try RuleRun(sliderScene(), s)
    let changes = run.controlActions.filter { $0.event == "valueChanged" }
    // The thumb keeps its 6 pt offset from the finger: 320 → centre 314 → 0.5; 620 → past the end: 1.
    let values = changes.map { a -> Double in if case .value(let v) = a.controlValue { v } else { -1 } }
    #expect(values.count == 3)
    #expect(abs(values[0] - 0.5) < 0.002)
    #expect(values[1] == 1)
    #expect(abs(values[2] - 0.75) < 0.002)
    #expect(
      run.events(of: "volume") == [
        "touchDown", "valueChanged", "primaryActionTriggered", "touchDragInside", "valueChanged",
        "primaryActionTriggered", "touchDragOutside", "touchDragExit", "valueChanged", "primaryActionTriggered",
        "touchDragInside", "touchDragEnter", "touchUpInside",
      ])
    // Each change is visible first: a control message with the same value precedes its valueChanged.
    let states = run.controlStates.map { c -> Double in if case .value(let v) = c.controlValue { v } else { -1 } }
    #expect(states.last == values.last)
  }

  @Test func aNonContinuousSliderSendsOneValueChangedAtTheLift() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 114, y: 320)])
    for x in [214.0, 314] {
      s.wait(0.02)
      s.move(f, to: [.init(x: x, y: 320)])
    }
    s.wait(0.02)
    s.up(f)
    let run = try RuleRun(sliderScene(", continuous: false"), s)
    #expect(
      run.events(of: "volume") == [
        "touchDown", "touchDragInside", "touchDragInside", "valueChanged", "primaryActionTriggered", "touchUpInside",
      ])
    let change = try #require(run.controlActions.first { $0.event == "valueChanged" })
    guard case .value(let v) = change.controlValue else { Issue.record("no value"); return }
    #expect(abs(v - 0.5) < 0.002)
    // The thumb still moved with the finger: two value states while dragging.
    #expect(run.controlStates.filter { if case .value(let v) = $0.controlValue { v > 0 } else { false } }.count >= 2)
  }

  @Test func aTouchOnTheTrackAwayFromTheThumbDoesNothing() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 400, y: 320))
    let run = try RuleRun(sliderScene(), s)
    #expect(run.controlActions.isEmpty)
    #expect(run.controlStates.isEmpty)
  }

  @Test func aSuperviewPanAlongTheThumbDoesNotBeginButAcrossItDoes() throws {
    let along = ruleScript()
    along.drag(from: .init(x: 114, y: 320), to: .init(x: 314, y: 320), duration: 0.2)
    let runAlong = try RuleRun(sliderScene(panel: "recognizers: [{id: pan, type: pan, action: pan-panel}]"), along)
    #expect(runAlong.actionLog.isEmpty)
    #expect(runAlong.events(of: "volume").last == "touchUpInside")

    let across = ruleScript()
    across.drag(from: .init(x: 114, y: 320), to: .init(x: 114, y: 520), duration: 0.2)
    let runAcross = try RuleRun(sliderScene(panel: "recognizers: [{id: pan, type: pan, action: pan-panel}]"), across)
    #expect(runAcross.actionLog.first == "pan:began")
    // The pan takes the touch (in the frame it begins, one or two frames after touch-down).
    let events = runAcross.events(of: "volume")
    #expect(events.first == "touchDown" && events.last == "touchCancel")
    #expect(!events.contains("valueChanged") && !events.contains("touchUpInside"))
  }

  // MARK: Switch

  /// A 51 x 31 switch `lang` at (100, 500) (UISwitch's size): the knob travels 20 pt.
  func switchScene(_ extra: String = "") -> String {
    ruleScene(
      """
      - id: lang
        frame: {x: 100, y: 500, width: 51, height: 31}
        control: {type: switch, actions: \(everyEvent("lang"))\(extra)}
      """)
  }

  @Test func aTapTogglesTheSwitchOnTheLift() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 125, y: 515))
    s.wait(0.5)
    s.tap(at: .init(x: 125, y: 515))
    let run = try RuleRun(switchScene(), s)
    let changes = run.controlActions.filter { $0.event == "valueChanged" }.map(\.controlValue)
    #expect(changes == [.on(true), .on(false)])
    #expect(
      Array(run.events(of: "lang").prefix(4)) == [
        "touchDown", "valueChanged", "primaryActionTriggered", "touchUpInside",
      ])
    let ons = run.controlStates.map(\.controlValue)
    #expect(ons.contains(.on(true)) && ons.last == .on(false))
  }

  @Test func draggingTheKnobSetsTheSideItEndsOnEvenOutside() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 110, y: 515)])
    s.wait(0.02)
    s.move(f, to: [.init(x: 135, y: 515)])  // 25 pt: a drag; the knob goes right (on)
    s.wait(0.02)
    s.move(f, to: [.init(x: 135, y: 700)])  // far below: outside, the knob stays on
    s.wait(0.02)
    s.up(f)
    let run = try RuleRun(switchScene(), s)
    #expect(run.events(of: "lang").suffix(3) == ["valueChanged", "primaryActionTriggered", "touchUpOutside"])
    #expect(run.controlActions.first { $0.event == "valueChanged" }?.controlValue == .on(true))

    // A drag that goes right and comes back leaves the switch off: no valueChanged.
    let back = ruleScript()
    let g = back.down([.init(x: 110, y: 515)])
    back.wait(0.02)
    back.move(g, to: [.init(x: 135, y: 515)])
    back.wait(0.02)
    back.move(g, to: [.init(x: 112, y: 515)])
    back.wait(0.02)
    back.up(g)
    let runBack = try RuleRun(switchScene(), back)
    #expect(!runBack.events(of: "lang").contains("valueChanged"))
    #expect(runBack.events(of: "lang").last == "touchUpInside")
  }

  // MARK: Stepper

  /// A 94 x 32 stepper `count` at (100, 600): minus on the left half, plus on the right.
  func stepperScene(_ extra: String = "") -> String {
    ruleScene(
      """
      - id: count
        frame: {x: 100, y: 600, width: 94, height: 32}
        control: {type: stepper, actions: {valueChanged: count-changed}\(extra)}
      """)
  }

  @Test func aHeldStepperRepeatsAfterHalfASecondEveryTenthOfASecond() throws {
    let s = ruleScript()
    s.longPress(at: .init(x: 170, y: 616), duration: 0.95)
    let run = try RuleRun(stepperScene(), s)
    let changes = run.controlActions
    #expect(changes.map(\.controlValue) == (1...6).map { .value(Double($0)) })
    let t0 = try #require(changes.first).time
    let offsets = changes.map { $0.time - t0 }
    for (offset, expected) in zip(offsets, [0, 0.5, 0.6, 0.7, 0.8, 0.9]) { #expect(abs(offset - expected) < 1e-9) }
  }

  @Test func withoutAutorepeatAHeldStepperStepsOnceAndMinusStopsAtTheMinimum() throws {
    let s = ruleScript()
    s.longPress(at: .init(x: 170, y: 616), duration: 0.95)
    s.wait(0.5)
    s.tap(at: .init(x: 120, y: 616))
    s.wait(0.5)
    s.tap(at: .init(x: 120, y: 616))  // at 0 already: the minus half does not track
    let run = try RuleRun(stepperScene(", autorepeat: false"), s)
    #expect(run.controlActions.map(\.controlValue) == [.value(1), .value(0)])
  }

  @Test func aNonContinuousStepperReportsOnceAtTheLift() throws {
    let s = ruleScript()
    s.longPress(at: .init(x: 170, y: 616), duration: 0.75)
    let run = try RuleRun(stepperScene(", continuous: false"), s)
    // 1 at touch-down, 2 at +0.5, 3 at +0.6, 4 at +0.7; one valueChanged with 4, at the lift.
    #expect(run.controlActions.map(\.controlValue) == [.value(4)])
    // The value is visible at each step (with the highlight at touch-down, then the lift's un-highlight).
    #expect(run.controlStates.map(\.controlValue) == [.value(1), .value(2), .value(3), .value(4), .value(4)])
    #expect(run.highlights(of: "count") == ["H", "H", "H", "H", "-"])
  }

  // MARK: Segmented control

  @Test func aLiftSelectsTheSegmentUnderTheFinger() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 350, y: 716))
    s.wait(0.5)
    s.tap(at: .init(x: 350, y: 716))  // the same segment: no change
    let run = try RuleRun(
      ruleScene(
        """
        - id: language
          frame: {x: 100, y: 700, width: 300, height: 32}
          control: {type: segmented, segments: [en, de, fr], actions: {valueChanged: language}}
        """), s)
    #expect(run.controlActions.map(\.controlValue) == [.selectedSegmentIndex(2)])
    #expect(run.controlActions.first?.jsonLine.contains(#""value":2"#) == true)
    #expect(run.controlStates.contains { $0.controlValue == .selectedSegmentIndex(2) })
  }
}
