// The pipeline's lines for ProtocolSchema: each kind and variant built by the protocol's own types
// and written by their encoders, with every key and with the fewest. A variant whose keys take
// other types (a pan's velocity is a point, a pinch's a number; a held touch's `by` is a list, a
// cancelled one's a string) has its own definition.

extension ProtocolSchema {
  static var pipelineExamples: [Example] {
    let at = WirePoint(x: 250, y: 180)
    func action(
      _ gesture: String, press: String? = nil, inView: WirePoint? = nil, _ values: GestureValues
    ) -> String {
      ActionMessage(
        seq: 1, action: "a", view: "v", window: "w", time: 1,
        detail: .recognizer(
          gesture: gesture, state: "ended", recognizer: "r", location: at, numberOfTouches: 1, press: press,
          values: values),
        locationInView: inView
      ).jsonLine
    }
    func controlAction(_ control: String, _ value: ControlValue) -> String {
      ActionMessage(
        seq: 1, action: "a", event: "valueChanged", control: control, view: "v", window: "w", time: 1, value: value
      ).jsonLine
    }
    func control(_ control: String, _ value: ControlValue) -> String {
      ControlMessage(
        seq: 1, control: control, view: "v", window: "w", time: 1, enabled: true, highlighted: false,
        selected: false, value: value
      ).jsonLine
    }
    let recognizer = TraceMessage.RecognizerInfo(id: "r", gesture: "tap", view: "v", window: "w")
    let anonymous = TraceMessage.RecognizerInfo(id: "r", gesture: nil, view: "v", window: "w")
    let touch = TraceMessage.TouchInfo(id: 3, view: "v", window: "w")
    func trace(_ event: TraceMessage.Event) -> String { TraceMessage(time: 1, event: event).jsonLine }
    let touch1 = TouchesMessage.TouchInfo(id: 1, view: "v", phase: "moved", x: 1, y: 2, tapCount: 1)
    let touches = TouchesMessage(seq: 1, phase: "moved", view: "v", window: "w", time: 1, touches: [touch1]).jsonLine
    var zoomed = touch1
    zoomed.locationInView = WirePoint(x: 0.5, y: 1)
    let touchesFull = TouchesMessage(
      seq: 1, phase: "moved", view: "v", window: "w", time: 1, touches: [zoomed],
      coalesced: [.init(id: 1, x: 1, y: 2, time: 1)], predicted: [.init(id: 1, x: 1.5, y: 2.5, time: 1.008)]
    ).jsonLine
    let presses = PressesMessage(
      seq: 1, phase: "began", view: "v", window: "w", time: 1,
      presses: [.init(id: 1, type: "select", key: "KEY_ENTER", phase: "began")]
    ).jsonLine
    return [
      Example(
        "action", full: action("tap", press: "select", inView: WirePoint(x: 20, y: 20), .none),
        minimal: action("tap", .none)),
      Example(
        "action-pan", full: action("pan", .pan(translation: at, velocity: at)),
        minimal: action("pan", .pan(translation: at, velocity: at))),
      Example(
        "action-pinch", full: action("pinch", .pinch(scale: 1.5, velocity: 0.5)),
        minimal: action("pinch", .pinch(scale: 1.5, velocity: 0.5))),
      Example(
        "action-rotation", full: action("rotation", .rotation(rotation: 0.5, velocity: 1)),
        minimal: action("rotation", .rotation(rotation: 0.5, velocity: 1))),
      Example(
        "action-swipe", full: action("swipe", .swipe(direction: "left")),
        minimal: action("swipe", .swipe(direction: "left"))),
      Example(
        "action-hover", full: action("hover", .hover(zOffset: 0.5, altitudeAngle: 1.2, azimuthAngle: 3.1)),
        minimal: action("hover", .hover(zOffset: 0, altitudeAngle: 1.570796, azimuthAngle: 0))),
      Example("action-control", full: controlAction("button", .none), minimal: controlAction("button", .none)),
      Example(
        "action-control-switch", full: controlAction("switch", .on(true)), minimal: controlAction("switch", .on(true))),
      Example(
        "action-control-slider", full: controlAction("slider", .value(0.5)),
        minimal: controlAction("slider", .value(0.5))),
      Example("touches", full: touchesFull, minimal: touches),
      Example(
        "scroll",
        full: ScrollMessage(
          seq: 1, phase: "willEndDragging", view: "v", window: "w", time: 1, contentOffset: at, zoomScale: 2,
          velocity: at,
          targetContentOffset: at, willDecelerate: true
        ).jsonLine,
        minimal: ScrollMessage(seq: 1, phase: "didScroll", view: "v", window: "w", time: 1, contentOffset: at).jsonLine),
      Example("control", full: control("button", .none), minimal: control("button", .none)),
      Example("control-switch", full: control("switch", .on(true)), minimal: control("switch", .on(true))),
      Example("control-slider", full: control("slider", .value(0.5)), minimal: control("slider", .value(0.5))),
      Example(
        "control-segmented", full: control("segmented", .selectedSegmentIndex(1)),
        minimal: control("segmented", .selectedSegmentIndex(1))),
      Example(
        "control-pageControl", full: control("pageControl", .currentPage(2)),
        minimal: control("pageControl", .currentPage(2))),
      Example("presses", full: presses, minimal: presses),
      Example(
        "idle", full: IdleMessage(seq: 1, isIdle: true, time: 1, lastInput: 0.5, swallowed: false).jsonLine,
        minimal: IdleMessage(seq: 1, isIdle: true, time: 1, lastInput: nil, swallowed: false).jsonLine),
      Example(
        "accessibility",
        full: AccessibilityMessage(
          seq: 1, event: "focus", window: "w", view: "v", segment: 1, label: "Buy", value: "2 of 3",
          traits: ["button", "selected"], spoken: "Buy, 2 of 3, button, selected.", on: true, time: 1
        ).jsonLine,
        minimal: AccessibilityMessage(seq: 1, event: "voiceOver", window: "w", time: 1).jsonLine),
      Example(
        "stroke",
        full: StrokeMessage(
          seq: 1, view: "pad", window: "w", time: 1, touchType: "pencil",
          points: [
            StrokePoint(x: 1, y: 2, time: 1, force: 0.5, altitudeAngle: 1.2, azimuthAngle: 3),
            StrokePoint(x: 2, y: 3, time: 1.005, force: 0.6, altitudeAngle: 1.2, azimuthAngle: 3),
          ]
        ).jsonLine,
        minimal: StrokeMessage(
          seq: 1, view: "pad", window: "w", time: 1, touchType: "direct", points: [StrokePoint(x: 1, y: 2, time: 1)]
        ).jsonLine),
      Example(
        "signature",
        full: SignatureMessage(
          seq: 1, view: "pad", window: "w", time: 2,
          strokes: [
            .init(
              touchType: "pencil",
              points: [StrokePoint(x: 1, y: 2, time: 1, force: 1, altitudeAngle: 1, azimuthAngle: 0)])
          ],
          bounds: WireRect(x: 1, y: 2, width: 0, height: 0), duration: 0
        ).jsonLine,
        minimal: SignatureMessage(seq: 1, view: "pad", window: "w", time: 2, strokes: [], bounds: nil, duration: 0)
          .jsonLine),
      Example(
        "trace-recognizer", full: trace(.recognizer(recognizer, from: "possible", to: "failed", cause: "moved")),
        minimal: trace(.recognizer(anonymous, from: "possible", to: "failed", cause: "moved"))),
      Example(
        "trace-waiting", full: trace(.waiting(recognizer, to: "ended", requirement: "r2")),
        minimal: trace(.waiting(anonymous, to: "ended", requirement: "r2"))),
      Example(
        "trace-touchBegan",
        full: trace(.touchBegan(touch, location: at, tapCount: 1, recognizers: ["r"], notes: ["n"])),
        minimal: trace(.touchBegan(touch, location: at, tapCount: 1, recognizers: ["r"], notes: ["n"]))),
      Example(
        "trace-touchSwallowed", full: trace(.touchSwallowed(touch: 3, window: "w", location: at, reason: "x")),
        minimal: trace(.touchSwallowed(touch: 3, window: nil, location: at, reason: "x"))),
      Example(
        "trace-held", full: trace(.held(touch, phase: "began", by: ["r"])),
        minimal: trace(.held(touch, phase: "began", by: ["r"]))),
      Example(
        "trace-released", full: trace(.released(touch, phase: "ended", location: at)),
        minimal: trace(.released(touch, phase: "ended", location: at))),
      Example(
        "trace-cancelledInView", full: trace(.cancelledInView(touch, by: "r")),
        minimal: trace(.cancelledInView(touch, by: "r"))),
      Example(
        "trace-pressBegan",
        full: trace(
          .pressBegan(press: 1, key: "KEY_ENTER", pressType: "select", view: "v", window: "w", recognizers: ["r"])),
        minimal: trace(
          .pressBegan(press: 1, key: "KEY_ENTER", pressType: "select", view: nil, window: "w", recognizers: []))),
      Example(
        "trace-controlTracking",
        full: trace(.controlTracking(touch, phase: "ended", inside: true, tracking: true, events: ["touchUpInside"])),
        minimal: trace(.controlTracking(touch, phase: "began", inside: true, tracking: false, events: []))),
      Example(
        "trace-voiceOverGesture",
        full: trace(.voiceOverGesture(gesture: "flick", fingers: 3, direction: "up", window: "w")),
        minimal: trace(.voiceOverGesture(gesture: "doubleTap", fingers: 1, direction: nil, window: "w"))),
    ]
  }
}
