// What VoiceOver says and publishes: one accessibility message per event, and the speech request
// that goes with it (SpeechRequest.swift), in the window's language.
import TouchDelivery

extension SceneRuntime {
  /// Publishes an accessibility `event` of window `index` about `element` (nil: about no element)
  /// that says `spoken`, and hands the speech on: `hint` after it, `interrupting` what the window
  /// was saying (a focus change, an adjusted value) or queued after it (an announcement).
  func tell(
    _ event: String, _ element: AccessibilityElement?, spoken: String?, hint: String? = nil, interrupting: Bool = true,
    inWindow index: Int
  ) {
    publishAccessibility(
      event, element, spoken: spoken.map { text in hint.map { text + " " + $0 } ?? text } ?? hint, inWindow: index)
    if let text = spoken ?? hint {
      speak(.say(text: text, hint: spoken == nil ? nil : hint, interrupting: interrupting), inWindow: index)
    }
  }

  /// The accessibility message of `event` about `element` (nil: about none) that says `spoken`.
  private func publishAccessibility(
    _ event: String, _ element: AccessibilityElement?, spoken: String?, inWindow index: Int
  ) {
    sink(
      .accessibility(
        AccessibilityMessage(
          seq: takeSeq(), event: event, window: scene.windows[index].id, view: element?.view,
          segment: element?.segment, label: element?.label, value: element?.value, traits: element?.traits,
          spoken: spoken, time: now)))
  }

  /// An element got the focus: its utterance, interrupting whatever was being said, its hint after it.
  func tellFocus(_ element: AccessibilityElement, inWindow index: Int) {
    let (text, hint) = element.utterance(in: spokenLanguage(inWindow: index))
    tell("focus", element, spoken: text, hint: hint, inWindow: index)
  }

  /// Hands `kind` to ``speaker`` for window `index`, where its `speech.enabled` is true. Speech
  /// paused by a two-finger tap resumes before anything new is said, as VoiceOver's does.
  func speak(_ kind: SpeechRequest.Kind, inWindow index: Int) {
    guard let speaker, scene.windows[index].speech.enabled else { return }
    let request = { (kind: SpeechRequest.Kind) in
      SpeechRequest(window: self.scene.windows[index].id, speech: self.scene.windows[index].speech, kind: kind)
    }
    switch kind {
    case .say, .sayAll:
      if let state = voiceOvers[index], state.speechPaused {
        state.speechPaused = false
        speaker(request(.resume))
      }
    case .pause: voiceOvers[index]?.speechPaused = true
    case .resume: voiceOvers[index]?.speechPaused = false
    }
    speaker(request(kind))
  }

  /// A two-finger tap: speech pauses where it is, or resumes (a `pause` or `resume` event).
  func toggleSpeech(inWindow index: Int) {
    let paused = voiceOvers[index]?.speechPaused ?? false
    tell(paused ? "resume" : "pause", nil, spoken: nil, inWindow: index)
    speak(paused ? .resume : .pause, inWindow: index)
  }

  /// A two-finger flick: every element read in reading order, from the first (flick up) or from the
  /// focus (down), as VoiceOver's "read all"; a `readAll` event about the first one read, the focus
  /// moving to it.
  func readAll(fromTop: Bool, state: VoiceOverState, inWindow index: Int) {
    let elements = accessibilityElements(inWindow: index)
    let start = fromTop ? 0 : (focusIndex(state, in: elements) ?? 0)
    guard elements.indices.contains(start) else { return }
    let language = spokenLanguage(inWindow: index)
    let said = elements[start...].compactMap { $0.spoken(in: language) }
    state.focus = VoiceOverState.ElementKey(elements[start])
    publishAccessibility("readAll", elements[start], spoken: said.joined(separator: " "), inWindow: index)
    speak(.sayAll(said), inWindow: index)
  }

  /// VoiceOver's escape (a two-finger scrub, the keypad's menu key) or magic tap (a two-finger
  /// double tap): an accessibility event, and the action the window's `voiceOverActions` maps it
  /// to, as an `action` message of gesture `voiceOver` (its recognizer: the event's name) on the
  /// focused element's view (else the window), at its activation point (else the window's centre).
  func voiceOverCommand(_ event: String, state: VoiceOverState, numberOfTouches: Int, inWindow index: Int) {
    let focused = focused(state, in: accessibilityElements(inWindow: index))
    tell(event, focused, spoken: nil, inWindow: index)
    let window = scene.windows[index]
    let actions = window.voiceOverActions
    guard let action = event == "escape" ? actions.escape : actions.magicTap else { return }
    let point = focused?.activationPoint ?? Point(x: window.size.width / 2, y: window.size.height / 2)
    sink(
      .action(
        ActionMessage(
          seq: takeSeq(), action: action, view: focused?.view ?? window.id, window: window.id, time: now,
          detail: .recognizer(
            gesture: "voiceOver", state: "ended", recognizer: event, location: WirePoint(x: point.x, y: point.y),
            numberOfTouches: numberOfTouches, press: nil, values: .none))))
  }
}
