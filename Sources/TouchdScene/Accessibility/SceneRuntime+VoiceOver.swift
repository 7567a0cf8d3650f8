// VoiceOver in a window: while it is on, the window's touches go to VoiceOver's gestures
// (VoiceOverGestures) instead of its views, and act on the accessibility elements.
import TouchDelivery
import TouchdInput

/// A window's VoiceOver: its gestures, the element with the focus, and what the exploring finger
/// is over.
final class VoiceOverState {
  var gestures: VoiceOverGestures!
  /// The focused element: its view and segment.
  var focus: ElementKey?
  /// The exploring finger and the element it entered last (nil: empty space), so that each entry
  /// focuses once.
  var exploring: (touch: TouchID, entered: ElementKey?)?
  /// The fingers passing through (double tap and hold): ordinary touches of the window until they lift.
  var passthrough: Set<TouchID> = []
  /// Speech paused by a two-finger tap.
  var speechPaused = false

  struct ElementKey: Hashable {
    var view: String
    var segment: Int?
    init(_ element: AccessibilityElement) {
      view = element.view
      segment = element.segment
    }
  }
}

extension SceneRuntime {
  /// The first contact id of the taps VoiceOver makes to activate an element: far above what the
  /// kernel's slots and tracking ids give touchd's allocator, so they never meet a device's.
  static let voiceOverTouchBase: UInt64 = 1 << 62

  /// Whether VoiceOver is on in window `index` (the scene's `voiceOver:`, or `set`).
  public func isVoiceOverOn(inWindow index: Int) -> Bool { voiceOvers[index] != nil }

  /// Turns VoiceOver on or off in window `index`: the window's touches down are cancelled (their
  /// contacts ignored until they lift), and a `voiceOver` event is published. Nothing happens when
  /// it already is as asked.
  func setVoiceOver(_ on: Bool, inWindow index: Int, publish: Bool = true) {
    guard on != isVoiceOverOn(inWindow: index) else { return }
    let window = windows[index]
    if on {
      application.cancelTouches(in: window, reason: "VoiceOver turned on in window '\(scene.windows[index].id)'")
      let state = VoiceOverState()
      state.gestures = VoiceOverGestures(clock: application.clock) { [weak self] event in
        self?.voiceOverGesture(event, inWindow: index)
      }
      voiceOvers[index] = state
    } else if let state = voiceOvers[index] {
      // Fingers passing through are the window's touches: cancelled, as on the way in.
      application.cancelTouches(in: window, reason: "VoiceOver turned off in window '\(scene.windows[index].id)'")
      // The fingers VoiceOver had are ignored until they lift, as cancelled touches are.
      voiceOverIgnored.formUnion(state.gestures.fingers)
      state.gestures.reset()
      voiceOvers[index] = nil
    }
    scene.windows[index].voiceOver = on
    guard publish else { return }
    let language = spokenLanguage(inWindow: index)
    let said = on ? language.voiceOverOn : language.voiceOverOff
    sink(
      .accessibility(
        AccessibilityMessage(
          seq: takeSeq(), event: "voiceOver", window: scene.windows[index].id, spoken: said, on: on, time: now)))
    // What VoiceOver says as it turns on or off interrupts what it was saying; turned off, a paused
    // speech is resumed to say it.
    speak(.say(text: said, hint: nil, interrupting: true), inWindow: index)
  }

  /// The headphone switch of window `index`'s keys changed: with `voiceOver: headphones`, plugging
  /// headphones in turns VoiceOver on and pulling them out (or the jack's device going away: its
  /// switch is cancelled) turns it off, as EZ Access kiosks do; otherwise the switch does nothing.
  func headphonesChanged(_ plugged: Bool, at time: Double, inWindow index: Int) {
    guard scene.windows[index].voiceOverFollowsHeadphones else { return }
    frameTime = time
    defer { frameTime = nil }
    setVoiceOver(plugged, inWindow: index)
  }

  /// Hands a mapped frame of window `index` to VoiceOver when it is on there; false when it is off
  /// (the frame is the views'). Contacts still down from before VoiceOver turned off are dropped.
  func voiceOverTakes(_ frame: inout TouchFrame, inWindow index: Int) -> Bool {
    if !voiceOverIgnored.isEmpty {
      frame.contacts.removeAll { contact in
        guard voiceOverIgnored.contains(contact.id) else { return false }
        if contact.phase.isTerminal { voiceOverIgnored.remove(contact.id) }
        return true
      }
    }
    guard let state = voiceOvers[index] else { return false }
    if !state.passthrough.isEmpty {
      let through = frame.contacts.filter { state.passthrough.contains($0.id) }
      if !through.isEmpty {
        frame.contacts.removeAll { state.passthrough.contains($0.id) }
        for contact in through where contact.phase.isTerminal { state.passthrough.remove(contact.id) }
        application.handle(TouchFrame(time: frame.time, contacts: through), in: windows[index])
      }
    }
    state.gestures.handle(frame.contacts, at: frame.time.seconds)
    return true
  }

  /// The press types VoiceOver takes while it is on, and what each does when its key goes down:
  /// down and right arrows step to the next element, up and left to the previous one, select
  /// activates, menu is VoiceOver's escape, and the scene's own `help` says the focused element's
  /// hint (issue #40's keys: Trace Center's EZ Access keypad, mapped with `keys.map`). Their
  /// releases are VoiceOver's too; every other press goes to the first responder as usual.
  static let voiceOverKeys: [PressType: String] = [
    .downArrow: "next", .rightArrow: "next", .upArrow: "previous", .leftArrow: "previous", .select: "activate",
    .menu: "escape", PressType("help"): "help",
  ]

  /// Takes VoiceOver's keys out of a window's press changes while VoiceOver is on there, and
  /// does what each pressed one does.
  func voiceOverTakes(_ changes: inout [PressChange], inWindow index: Int) {
    guard let state = voiceOvers[index] else { return }
    let taken = changes.filter { Self.voiceOverKeys[$0.type] != nil }
    guard !taken.isEmpty else { return }
    changes.removeAll { Self.voiceOverKeys[$0.type] != nil }
    for change in taken where change.phase == .down {
      let elements = accessibilityElements(inWindow: index)
      switch Self.voiceOverKeys[change.type] {
      case "next": step(1, state: state, elements: elements, inWindow: index)
      case "previous": step(-1, state: state, elements: elements, inWindow: index)
      case "activate": if let focused = focused(state, in: elements) { activate(focused, inWindow: index) }
      case "escape": voiceOverCommand("escape", state: state, numberOfTouches: 0, inWindow: index)
      default:
        guard let focused = focused(state, in: elements), let hint = focused.hint else { return }
        tell("announce", focused, spoken: hint, inWindow: index)
      }
    }
  }

  /// VoiceOver says `text` in window `index` (UIAccessibility's `.announcement`): an `announce`
  /// message, about no element. False, and nothing published, where VoiceOver is off.
  func announce(_ text: String, inWindow index: Int) -> Bool {
    guard isVoiceOverOn(inWindow: index) else { return false }
    // UIAccessibility's announcement is queued after what VoiceOver is saying.
    tell("announce", nil, spoken: text, interrupting: false, inWindow: index)
    return true
  }

  private func voiceOverGesture(_ event: VoiceOverGestures.Event, inWindow index: Int) {
    guard let state = voiceOvers[index] else { return }
    if isTracing, let (gesture, fingers, direction) = event.traced(exploring: state.exploring?.touch) {
      sink(
        .trace(
          TraceMessage(
            time: now,
            event: .voiceOverGesture(
              gesture: gesture, fingers: fingers, direction: direction?.rawValue, window: scene.windows[index].id))))
    }
    let elements = accessibilityElements(inWindow: index)
    switch event {
    case .explore(let touch, let point):
      if state.exploring?.touch != touch { state.exploring = (touch, nil) }
      let under = element(at: point, in: elements).map(VoiceOverState.ElementKey.init)
      guard under != state.exploring?.entered else { return }
      state.exploring?.entered = under
      if let under, let element = Self.element(under, in: elements) {
        focus(element, state: state, inWindow: index)
      }
    case .tap(let point):
      if let element = element(at: point, in: elements) { focus(element, state: state, inWindow: index) }
    case .doubleTap, .splitTap:
      guard let focused = focused(state, in: elements) else { return }
      activate(focused, inWindow: index)
    case .flick(let direction):
      switch direction {
      case .right, .left: step(direction == .right ? 1 : -1, state: state, elements: elements, inWindow: index)
      case .up, .down:
        guard let focused = focused(state, in: elements), focused.traits.contains("adjustable") else { return }
        adjust(focused, by: direction == .up ? 1 : -1, inWindow: index)
      }
    case .threeFingerFlick(let direction, let point):
      scrollByPage(direction, focus: focused(state, in: elements), fingers: point, inWindow: index)
    case .twoFingerTap: toggleSpeech(inWindow: index)
    case .twoFingerFlick(let direction):
      // Apple: a two-finger swipe up reads all from the top, a two-finger swipe down from the focus.
      guard direction == .up || direction == .down else { return }
      readAll(fromTop: direction == .up, state: state, inWindow: index)
    case .twoFingerDoubleTap: voiceOverCommand("magicTap", state: state, numberOfTouches: 2, inWindow: index)
    case .scrub: voiceOverCommand("escape", state: state, numberOfTouches: 2, inWindow: index)
    case .threeFingerTap:
      // Apple: a three-finger tap speaks where the focus is ("3 of 7"): its place in reading order.
      let language = spokenLanguage(inWindow: index)
      if let place = focusIndex(state, in: elements) {
        tell("position", elements[place], spoken: language.position(place + 1, elements.count), inWindow: index)
      } else {
        tell("position", nil, spoken: language.nothingFocused, inWindow: index)
      }
    case .passthrough(let touch, let point):
      // VoiceOver's double-tap-and-hold: the finger is the window's from here, as if it had just
      // landed where it is (the views' recognizers, a signature, a drag).
      state.passthrough.insert(touch)
      tell("passthrough", nil, spoken: nil, inWindow: index)
      let time = Timestamp(microseconds: Int64((now * 1e6).rounded()))
      application.handle(
        TouchFrame(time: time, contacts: [Contact(id: touch, phase: .began, x: point.x, y: point.y)]),
        in: windows[index])
    }
  }

  /// Three fingers flicked: `accessibilityScroll(_:)` of the scroll view around the focus (else
  /// the one under the fingers), by one page of its visible size and bounded by its content, as
  /// UIScrollView's does. Fingers flicking up show the next page down (VoiceOver's three-finger
  /// swipe up scrolls down), left the next page to the right. The position is said as "page 2 of
  /// 5" (an accessibility `scroll` event naming the scroll view); at an end nothing moves or is said.
  private func scrollByPage(
    _ direction: VoiceOverGestures.Direction, focus: AccessibilityElement?, fingers: Point, inWindow index: Int
  ) {
    func scrollView(around view: TouchDelivery.View?) -> ScrollView? {
      var v = view?.superview
      while let current = v {
        if let scrollView = current as? ScrollView { return scrollView }
        v = current.superview
      }
      return nil
    }
    var under = windows[index].hitTest(fingers, with: nil)
    while let view = under, !(view is ScrollView) { under = view.superview }
    guard let scrollView = scrollView(around: focus.flatMap { viewsByID[$0.view] }) ?? (under as? ScrollView),
      let id = scrollView.identifier
    else { return }
    let page = scrollView.bounds.size
    let inset = scrollView.contentInset
    let maxX = max(-inset.left, scrollView.contentSize.width + inset.right - page.width)
    let maxY = max(-inset.top, scrollView.contentSize.height + inset.bottom - page.height)
    var offset = scrollView.contentOffset
    switch direction {
    case .up: offset.y = min(offset.y + page.height, maxY)
    case .down: offset.y = max(offset.y - page.height, -inset.top)
    case .left: offset.x = min(offset.x + page.width, maxX)
    case .right: offset.x = max(offset.x - page.width, -inset.left)
    }
    guard offset != scrollView.contentOffset else { return }
    let current = scrollView.contentOffset
    forwardPageDrag(of: scrollView, by: Point(x: offset.x - current.x, y: offset.y - current.y), inWindow: index)
    scrollView.setContentOffset(offset, animated: false)
    let vertical = direction == .up || direction == .down
    let length = vertical ? page.height : page.width
    let position = vertical ? offset.y + inset.top : offset.x + inset.left
    let total = vertical ? scrollView.contentSize.height : scrollView.contentSize.width
    let pages = max(1, Int((total / max(length, 1)).rounded(.up)))
    let text = spokenLanguage(inWindow: index).page(min(pages, Int((position / max(length, 1)).rounded()) + 1), pages)
    sink(
      .accessibility(
        AccessibilityMessage(
          seq: takeSeq(), event: "scroll", window: scene.windows[index].id, view: id, value: text, spoken: text,
          time: now)))
    speak(.say(text: text, hint: nil, interrupting: true), inWindow: index)
  }

  /// How VoiceOver's page scroll is written to a forwarded window's virtual touchscreen: one finger
  /// dragged over ``pageDragDuration`` in ``pageDragSteps`` moves, then held still for
  /// ``pageDragHold`` before it lifts, so the app underneath scrolls by the drag and does not fling
  /// (its velocity at the lift is nil). touchd's choices: UIKit and Chromium end a drag without
  /// deceleration when the finger rests before lifting (UIScrollView's deceleration starts from
  /// the pan's velocity at the lift, which a finger at rest makes zero).
  static let pageDragDuration = 0.25
  static let pageDragSteps = 15
  static let pageDragHold = 0.15

  /// In a window with `forward:`, the page scroll as a drag for the app underneath: across the
  /// scroll view's visible centre, against `delta` (the content offset's change: to show the next
  /// page down the finger moves up by a page), by ``pageDragDuration`` and ``pageDragHold``. The
  /// app scrolls by the drag less its own touch slop (UIKit's pan starts after 10 pt).
  private func forwardPageDrag(of scrollView: ScrollView, by delta: Point, inWindow index: Int) {
    guard let forwarding, forwarding.forwards(window: index) else { return }
    let id = nextVoiceOverTouch()
    let visible = scrollView.bounds
    // Centred on the visible content, so a page's drag stays within the scroll view; in its own
    // points (its bounds are the visible content), made window points.
    let start = scrollView.convertToWindow(Point(x: visible.midX + delta.x / 2, y: visible.midY + delta.y / 2))
    let end = scrollView.convertToWindow(Point(x: visible.midX - delta.x / 2, y: visible.midY - delta.y / 2))
    forwarding.adopt(id, window: index)
    forwarding.send(id, .down(released: false), at: start, window: index)
    let begin = now
    let clock = application.clock
    for step in 1...Self.pageDragSteps {
      let t = Double(step) / Double(Self.pageDragSteps)
      _ = clock.schedule(at: begin + Self.pageDragDuration * t) { [weak forwarding] in
        forwarding?.send(
          id, .move, at: Point(x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t), window: index)
      }
    }
    _ = clock.schedule(at: begin + Self.pageDragDuration + Self.pageDragHold) { [weak forwarding] in
      forwarding?.send(id, .lift, at: end, window: index)
    }
  }

  /// The element at `point`: of those whose frame holds it, the frontmost (drawn last).
  private func element(at point: Point, in elements: [AccessibilityElement]) -> AccessibilityElement? {
    elements.filter { $0.frame.contains(point) }.max { $0.paintOrder < $1.paintOrder }
  }

  /// The focused element among `elements`, and its place there.
  func focused(_ state: VoiceOverState, in elements: [AccessibilityElement]) -> AccessibilityElement? {
    focusIndex(state, in: elements).map { elements[$0] }
  }

  func focusIndex(_ state: VoiceOverState, in elements: [AccessibilityElement]) -> Int? {
    state.focus.flatMap { focus in elements.firstIndex { VoiceOverState.ElementKey($0) == focus } }
  }

  /// The contact id of the next touch VoiceOver makes itself (an activation's tap, a forwarded
  /// page drag).
  private func nextVoiceOverTouch() -> TouchID {
    voiceOverTaps += 1
    return TouchID(rawValue: Self.voiceOverTouchBase + voiceOverTaps)
  }

  /// The element `key` names among `elements`.
  private static func element(_ key: VoiceOverState.ElementKey, in elements: [AccessibilityElement])
    -> AccessibilityElement?
  {
    elements.first { VoiceOverState.ElementKey($0) == key }
  }

  /// `element` as it is now in window `index` (after a scroll or a change of value); nil when gone.
  private func asNow(_ element: AccessibilityElement, inWindow index: Int) -> AccessibilityElement? {
    Self.element(VoiceOverState.ElementKey(element), in: accessibilityElements(inWindow: index))
  }

  private func focus(_ element: AccessibilityElement, state: VoiceOverState, inWindow index: Int) {
    state.focus = VoiceOverState.ElementKey(element)
    tellFocus(element, inWindow: index)
  }

  /// A flick right or left: the next or previous element in reading order (the first or the last
  /// without a focus); at either end the focus stays and a `boundary` event says so (VoiceOver
  /// plays its boundary sound; touchd says a word). A new focus scrolled out of sight in a
  /// scroll view is scrolled into it, as VoiceOver scrolls to the element it moves to.
  private func step(_ by: Int, state: VoiceOverState, elements: [AccessibilityElement], inWindow index: Int) {
    guard !elements.isEmpty else { return }
    let current = focusIndex(state, in: elements)
    let next = current.map { $0 + by } ?? (by > 0 ? 0 : elements.count - 1)
    guard elements.indices.contains(next) else {
      let language = spokenLanguage(inWindow: index)
      return tell(
        "boundary", current.map { elements[$0] }, spoken: by > 0 ? language.lastElement : language.firstElement,
        inWindow: index)
    }
    let element = elements[next]
    scrollIntoView(element)
    focus(asNow(element, inWindow: index) ?? element, state: state, inWindow: index)
  }

  /// Scrolls each scroll view around the element's view, innermost first, by the least that shows
  /// the view's frame (or as much of it as fits), without animation.
  private func scrollIntoView(_ element: AccessibilityElement) {
    guard let view = viewsByID[element.view] else { return }
    var inner: TouchDelivery.View = view
    while let parent = inner.superview {
      if let scrollView = parent as? ScrollView {
        let rect = AccessibilityElements.rect(view.bounds, of: view, in: scrollView)
        var offset = scrollView.contentOffset
        let visible = scrollView.bounds
        if rect.minY < visible.minY || rect.height > visible.height {
          offset.y = rect.minY
        } else if rect.maxY > visible.maxY {
          offset.y = rect.maxY - visible.height
        }
        if rect.minX < visible.minX || rect.width > visible.width {
          offset.x = rect.minX
        } else if rect.maxX > visible.maxX {
          offset.x = rect.maxX - visible.width
        }
        if offset != scrollView.contentOffset { scrollView.setContentOffset(offset, animated: false) }
      }
      inner = parent
    }
  }

  /// A double tap: the element activated as if its activation point were tapped (UIKit's default
  /// `accessibilityActivate()`): one touch down and up there, through the window's delivery, so its
  /// tap recognizer, control or touches view does what a tap does. In a window with `forward:`, the
  /// tap is forwarded as a finger's would be (a down frame, then a lift frame at the activation
  /// point, unless a recognizer of the scene claims it), so the app underneath gets it.
  private func activate(_ element: AccessibilityElement, inWindow index: Int) {
    tell("activate", element, spoken: nil, inWindow: index)
    let id = nextVoiceOverTouch()
    forwarding?.adopt(id, window: index)
    let time = Timestamp(microseconds: Int64((now * 1e6).rounded()))
    let p = element.activationPoint
    application.handle(
      TouchFrame(time: time, contacts: [Contact(id: id, phase: .began, x: p.x, y: p.y)]), in: windows[index])
    application.handle(
      TouchFrame(time: time, contacts: [Contact(id: id, phase: .ended, x: p.x, y: p.y)]), in: windows[index])
    // A value the tap changed (a switch's on or off) is said, as VoiceOver says it.
    if let after = asNow(element, inWindow: index), after.value != element.value, let value = after.value {
      speak(.say(text: value, hint: nil, interrupting: true), inWindow: index)
    }
  }

  /// A flick up or down on an adjustable element: `accessibilityIncrement()` or
  /// `accessibilityDecrement()`, as UIKit's controls implement them: a slider moves by a tenth of
  /// its range, a stepper by its step, a page control by a page; each sends valueChanged.
  private func adjust(_ element: AccessibilityElement, by direction: Double, inWindow index: Int) {
    guard let control = viewsByID[element.view] as? Control else { return }
    let before = ControlValue(of: control)
    control.batch {
      switch control {
      case let s as Slider:
        s.value = min(max(s.value + direction * (s.maximumValue - s.minimumValue) / 10, s.minimumValue), s.maximumValue)
      case let s as Stepper:
        s.value = min(max(s.value + direction * s.stepValue, s.minimumValue), s.maximumValue)
      case let p as PageControl:
        p.currentPage = p.clampedPage(p.currentPage + Int(direction))
      default: break
      }
    }
    // At either end nothing changes, and nothing is sent or said.
    guard ControlValue(of: control) != before else { return }
    control.sendValueChanged()
    // VoiceOver says the new value alone.
    let after = asNow(element, inWindow: index) ?? element
    tell("adjust", after, spoken: after.value, inWindow: index)
  }
}
