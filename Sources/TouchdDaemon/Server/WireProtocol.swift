import Foundation
import TouchdScene

/// A message on its way to clients: one JSON object, without the newline, and what subscriptions
/// filter on.
public struct OutboundMessage: Sendable {
  /// The JSON object, one line, no trailing newline.
  public var line: String
  /// The message's `type` ("action", "touches", …).
  public var type: String
  /// The action name, for action messages.
  public var action: String?
  /// The view the message is about (the recognizer's view, or the touches' responder view).
  public var view: String?

  public init(line: String, type: String, action: String? = nil, view: String? = nil) {
    self.line = line
    self.type = type
    self.action = action
    self.view = view
  }
}

/// A command a client sent: `{"cmd":NAME,"id":ANY,...}`.
public struct ClientCommand: @unchecked Sendable {
  /// The command name.
  public var name: String
  /// The client's `id`, echoed in the reply as JSON text (`null` when absent).
  public var idJSON: String
  /// Every field of the command object (JSONSerialization values: String, NSNumber, Bool, arrays,
  /// dictionaries, NSNull). Only read, never mutated after parsing.
  public var fields: [String: Any]
}

/// The reply to a command, before encoding.
public enum CommandResult: Sendable {
  /// `{"type":"reply","id":..,"ok":true, <fields>}`; `fields` is a JSON object's members already
  /// encoded (`"key":value,...`) or empty.
  case ok(fieldsJSON: String)
  /// `{"type":"error","id":..,"message":".."}`.
  case error(String)
}

/// Encoding and decoding of the line protocol described in docs/protocol.md.
public enum WireProtocol {
  /// The protocol version announced in `hello`.
  public static let version = 1
  /// Commands answered by the daemon's ``CommandHandler`` (the others, `ping` and `subscribe`,
  /// by the server itself).
  public static let pipelineCommands: Set<String> = ["set", "ignoreInteraction", "reload", "status"]

  /// Parses one line from a client. Errors are the message of an error reply.
  public static func parseCommand(_ line: Substring) -> Result<ClientCommand, CommandParseError> {
    let data = Data(line.utf8)
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      return .failure(CommandParseError(idJSON: "null", message: "not JSON: \(shortError(error))"))
    }
    guard let dict = object as? [String: Any] else {
      return .failure(CommandParseError(idJSON: "null", message: "a command must be a JSON object"))
    }
    let idJSON = dict["id"].map(encodeValue) ?? "null"
    guard let name = dict["cmd"] as? String else {
      return .failure(CommandParseError(idJSON: idJSON, message: "missing string field 'cmd'"))
    }
    return .success(ClientCommand(name: name, idJSON: idJSON, fields: dict))
  }

  /// `{"type":"reply",...}` or `{"type":"error",...}` for a command.
  public static func reply(idJSON: String, _ result: CommandResult) -> String {
    switch result {
    case .ok(let fields):
      return #"{"type":"reply","id":\#(idJSON),"ok":true\#(fields.isEmpty ? "" : "," + fields)}"#
    case .error(let message):
      return #"{"type":"error","id":\#(idJSON),"message":\#(quote(message))}"#
    }
  }

  /// A JSON string literal for `s` (the scene layer's escaping, so both speak one dialect).
  public static func quote(_ s: String) -> String { JSONFormat.string(s) }

  /// Any JSONSerialization value as compact JSON text.
  public static func encodeValue(_ value: Any) -> String {
    if value is NSNull { return "null" }
    if let s = value as? String { return quote(s) }
    if let data = try? JSONSerialization.data(
      withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes]),
      let text = String(data: data, encoding: .utf8)
    {
      return text
    }
    return "null"
  }

  static func shortError(_ error: Error) -> String {
    let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
    return text ?? "malformed"
  }
}

/// Why a client's line is not a command; answered with an error reply.
public struct CommandParseError: Error, Sendable {
  public var idJSON: String
  public var message: String
}
