// What VoiceOver asks speech to do: the runtime decides what is said and what it interrupts; the
// daemon's speech output (TouchdDaemon/Speech) says it through speech-dispatcher.

/// One thing VoiceOver asks of a window's speech, with the window's `speech:` settings. The
/// runtime hands requests to ``SceneRuntime/speaker`` as it publishes the accessibility messages
/// they go with; nothing waits for them.
public struct SpeechRequest: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// Say `text`, then `hint` after it. `interrupting`: first stop what the window's speech is
    /// saying and drop what it has queued (a focus change: VoiceOver says only the newest focus);
    /// otherwise queued after it (an announcement).
    case say(text: String, hint: String?, interrupting: Bool)
    /// Interrupt, then say each utterance in turn (read all).
    case sayAll([String])
    /// Pause speech where it is, keeping what is queued, or resume it (SSIP's PAUSE and RESUME).
    case pause, resume
  }

  /// The window's id.
  public var window: String
  /// The window's `speech:` (its socket, language, rate and voice).
  public var speech: Scene.Speech
  public var kind: Kind

  public init(window: String, speech: Scene.Speech, kind: Kind) {
    self.window = window
    self.speech = speech
    self.kind = kind
  }
}

extension SpeechRequest: CustomStringConvertible {
  /// What `touchctl replay --explain` prints: `window 'main' says "Single, button." then "Buys one
  /// ticket.", interrupting`.
  public var description: String {
    let what: String
    switch kind {
    case .say(let text, let hint, let interrupting):
      what =
        "says \"\(text)\"" + (hint.map { " then \"\($0)\"" } ?? "") + (interrupting ? ", interrupting" : ", queued")
    case .sayAll(let texts): what = "reads all: " + texts.map { "\"\($0)\"" }.joined(separator: " ")
    case .pause: what = "pauses"
    case .resume: what = "resumes"
    }
    return "speech of window '\(window)' \(what)"
  }
}
