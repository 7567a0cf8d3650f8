/// `{"cmd":"scene","scene":{…}}`: a whole scene from the client, as a JSON object of the scene
/// format, to replace the running one. The protocol reads the object; the scene layer validates it.
public struct PushSceneCommand: Hashable, Sendable {
  /// The fields `scene` takes.
  public static let fields = ["scene"]

  /// The scene, as the client wrote it.
  public var scene: StrictJSON

  public init(scene: StrictJSON) { self.scene = scene }

  /// Decodes the command's fields with strict types.
  public init(decoding fields: CommandFields) throws(ProtocolError) {
    try fields.rejectUnknown(Self.fields)
    scene = try fields.required(fields["scene"], "scene", "a JSON object: the scene")
  }

  public var members: [JSONValue.Member] { [("scene", JSONValue(scene))] }
}
