import Testing
import TouchdProtocol

/// The commands as the protocol declares them: every name decodes to its command, what a command
/// writes decodes back to it, and the errors name what is wrong.
@Suite("Commands")
struct CommandTests {
  static func decode(_ line: String) throws -> Command {
    let object: CommandObject
    do {
      object = try CommandObject.parse(line)
    } catch {
      throw error.error
    }
    return try Command.decode(object)
  }

  static func error(_ line: String) -> String? {
    do {
      _ = try decode(line)
      return nil
    } catch {
      return "\(error)"
    }
  }

  static let samples: [Command] = [
    .ping, .status, .reload, .metrics, .health,
    .subscribe(SubscribeCommand(types: ["action", "trace"], views: ["door"], overflow: .skip)),
    .subscribe(SubscribeCommand(types: ["touches"], coalesced: true, predicted: false)),
    .setView(
      SetViewCommand(
        view: "door", hidden: true, alpha: 0.25, frame: WireRect(x: 1, y: 2, width: 30, height: 40.5),
        scroll: ScrollChange(contentOffset: WirePoint(x: 0, y: 120), animated: true),
        control: ControlChange(value: 0.75, selectedSegmentIndex: -1), firstResponder: false)),
    .setWindow(
      SetWindowCommand(
        window: "main",
        change: WindowChange(
          rotation: 90, calibration: [1, 0, 0, 0, 1, 0], size: .init(width: 800, height: 480), voiceOver: true))),
    .announce(AnnounceCommand(text: "Your ticket is printing")),
    .announce(AnnounceCommand(text: "Bitte warten", window: "main")),
    .signature(SignatureCommand(view: "pad", action: "get")),
    .signature(SignatureCommand(view: "pad", action: "clear")),
    .ignoreInteraction(IgnoreInteractionCommand(value: true)),
    .update(UpdateCommand(operation: .remove, target: .view, id: "row-7")),
    .update(
      UpdateCommand(
        operation: .add, target: .view, id: "row-8",
        object: .object([.init(key: "id", value: .string("row-8")), .init(key: "alpha", value: .number("0.5"))]),
        parent: "list", index: 0)),
    .scene(PushSceneCommand(scene: .object([.init(key: "version", value: .number("1"))]))),
    .calibrate(
      CalibrateCommand(window: "main", targets: [.init(x: 10, y: 10), .init(x: 90, y: 10), .init(x: 50, y: 90)])),
    .calibrate(
      CalibrateCommand(window: "main", targets: [.init(x: 1, y: 1), .init(x: 2, y: 1), .init(x: 1, y: 2)], timeout: 30)),
  ]

  @Test("What a command writes decodes back to the same command, under its name")
  func roundTrip() throws {
    for command in Self.samples {
      let line = JSONValue.object([("cmd", .string(command.name)), ("id", .number(7))] + command.members).compact
      #expect(try Self.decode(line) == command, "\(line)")
      #expect(Command.names.contains(command.name))
    }
    #expect(Set(Self.samples.map(\.name)) == Set(Command.names))
  }

  @Test("A command's members follow its declared fields, in order")
  func membersInFieldOrder() {
    for command in Self.samples {
      let fields: [String] =
        switch command {
        case .setView: SetViewCommand.fields
        case .setWindow: SetWindowCommand.fields
        case .subscribe: SubscribeCommand.fields
        case .calibrate: CalibrateCommand.fields
        case .ignoreInteraction: IgnoreInteractionCommand.fields
        case .scene: PushSceneCommand.fields
        case .update: UpdateCommand.fields
        case .announce: AnnounceCommand.fields
        case .signature: SignatureCommand.fields
        case .ping, .status, .reload, .metrics, .health: []
        }
      let keys = command.members.map(\.key)
      #expect(keys == fields.filter { keys.contains($0) } || command.name == "update", "\(command.name): \(keys)")
    }
    #expect(
      Command.setView(SetViewCommand(view: "v", alpha: 1, scroll: ScrollChange(contentOffset: .init(x: 0, y: 1))))
        .members.map(\.key) == ["view", "alpha", "contentOffset"])
  }

  @Test("announce takes a non-empty text and an optional window, nothing else")
  func announceErrors() {
    #expect(Self.error(#"{"cmd":"announce"}"#) == "missing field 'text' (a string: what VoiceOver says)")
    #expect(Self.error(#"{"cmd":"announce","text":""}"#) == "'text' must be a non-empty string: what VoiceOver says")
    #expect(Self.error(#"{"cmd":"announce","text":3}"#) == "'text' must be a string, found 3")
    #expect(
      Self.error(#"{"cmd":"announce","text":"a","view":"v"}"#)
        == "unknown field 'view' (announce takes text, window)")
  }

  @Test("signature takes a view and do, get or clear, nothing else")
  func signatureErrors() {
    #expect(
      Self.error(#"{"cmd":"signature","do":"get"}"#) == "missing field 'view' (a string: the signature view's id)")
    #expect(Self.error(#"{"cmd":"signature","view":"pad"}"#) == "missing field 'do' (get or clear)")
    #expect(
      Self.error(#"{"cmd":"signature","view":"pad","do":"erase"}"#) == #"'do' must be get or clear, found "erase""#)
    #expect(
      Self.error(#"{"cmd":"signature","view":"pad","do":"get","window":"w"}"#)
        == "unknown field 'window' (signature takes view, do)")
  }

  @Test("Errors: unknown commands with a suggestion, both view and window, the strict types")
  func errors() {
    #expect(
      Self.error(#"{"cmd":"statu"}"#)
        == "unknown command 'statu' (did you mean 'status'? known: ping, subscribe, set, ignoreInteraction, reload, scene, update, status, calibrate, metrics, health, announce, signature)"
    )
    #expect(
      Self.error(#"{"cmd":"set","view":"a","window":"w","rotation":90}"#)
        == "'set' takes 'view' or 'window', not both (one command changes one of them)")
    #expect(
      Self.error(#"{"cmd":"set","window":"w","rotation":45}"#) == "'rotation' must be 0, 90, 180 or 270, found 45")
    #expect(
      Self.error(#"{"cmd":"set","window":"w"}"#)
        == "'set' with 'window' changes at least one of rotation, calibration, size, voiceOver")
    #expect(
      Self.error(#"{"cmd":"set","view":"a","animated":true}"#)
        == "'animated' goes with 'contentOffset', 'zoomScale' or 'zoomTo'")
    #expect(
      Self.error(#"{"cmd":"subscribe","types":["action","tuoches"]}"#)
        == "unknown message type 'tuoches' in 'types' (did you mean 'touches'? known: action, touches, scroll, control, presses, idle, accessibility, stroke, signature, trace)"
    )
    #expect(
      Self.error(#"{"cmd":"subscribe","overflow":"drop"}"#)
        == #"'overflow' must be "skip" or "disconnect", found "drop""#)
    #expect(
      Self.error(#"{"cmd":"calibrate","window":"w","targets":[[1,2]]}"#)
        == "'targets' must be an array of 3 to 9 targets, each [x, y] in window points, found 1 targets")
    #expect(
      Self.error(#"{"cmd":"calibrate","window":"w","targets":[[1,2],[3,4],[5,6]],"timeout":0}"#)
        == "'timeout' must be above 0 seconds, found 0.0")
    #expect(Self.error(#"{"cmd":"ignoreInteraction","value":1}"#) == "'value' must be true or false, found 1")
    #expect(Self.error(#"{"cmd":"ping","x":1}"#) == "unknown field 'x' (ping takes no fields besides cmd and id)")
    #expect(Self.error(#"{"cmd":"scene"}"#) == "missing field 'scene' (a JSON object: the scene)")
  }

  @Test("A calibration waits the default 120 s unless the command says otherwise")
  func calibrateTimeout() throws {
    let line = #"{"cmd":"calibrate","window":"w","targets":[[1,2],[3,4],[5,6]]}"#
    guard case .calibrate(let calibrate) = try Self.decode(line) else { Issue.record("not calibrate"); return }
    #expect(calibrate.timeout == nil && calibrate.waitSeconds == 120)
    #expect(!calibrate.members.contains { $0.key == "timeout" })
  }
}
