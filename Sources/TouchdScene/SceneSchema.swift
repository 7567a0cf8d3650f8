/// The JSON Schema (draft 2020-12) of the scene format, built from ``SceneFormat``'s tables.
///
/// config/scene.schema.json is this document; a test keeps the two identical and checks both
/// against the Codable types' keys.
public enum SceneSchema {
  /// The schema's `$defs` name of a recognizer type's object (`tapRecognizer`).
  public static func definitionName(of type: RecognizerType) -> String { "\(type.rawValue)Recognizer" }

  /// The schema's `$defs` name of a control type's object (`sliderControl`).
  public static func definitionName(of type: Scene.Control.Kind) -> String {
    type == .pageControl ? type.rawValue : "\(type.rawValue)Control"
  }

  /// The whole schema.
  public static var document: JSONValue {
    var root: [(key: String, value: JSONValue)] = [
      ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
      ("$id", .string("urn:touchd:scene:1")),
      ("title", .string("touchd scene")),
    ]
    root += object(.scene)
    var defs: [(key: String, value: JSONValue)] = []
    for kind in SceneObject.allCases where ![.scene, .recognizer, .control].contains(kind) {
      defs.append((kind.rawValue, .object(object(kind))))
    }
    defs.append(
      (
        "recognizer",
        dispatch(
          .recognizer, description: "A gesture recognizer; `type` decides which parameters it takes.",
          types: RecognizerType.allCases.map { ($0.rawValue, definitionName(of: $0)) })
      ))
    for type in RecognizerType.allCases {
      let keys = SceneFormat.keys(of: .recognizer, recognizerType: type)
      defs.append(
        (
          definitionName(of: type),
          typed(keys, type: type.rawValue, description: "A \(type.rawValue) gesture recognizer.")
        ))
    }
    defs.append(
      (
        "control",
        dispatch(
          .control, description: "A control (UIControl); `type` decides which properties it takes.",
          types: Scene.Control.Kind.allCases.map { ($0.rawValue, definitionName(of: $0)) })
      ))
    let classes: [Scene.Control.Kind: String] = [
      .button: "UIButton", .switch: "UISwitch", .slider: "UISlider", .stepper: "UIStepper",
      .segmented: "UISegmentedControl", .pageControl: "UIPageControl",
    ]
    for type in Scene.Control.Kind.allCases {
      let keys = SceneFormat.keys(of: .control, controlType: type)
      let description = "A \(SceneFormat.controlTypeName(type)) (\(classes[type] ?? "UIControl"))."
      defs.append((definitionName(of: type), typed(keys, type: type.rawValue, description: description)))
    }
    defs.append(("pressType", pressTypeDefinition))
    root.append(("$defs", .object(defs)))
    return .object(root)
  }

  /// An object whose `type` decides its other keys (`recognizer`, `control`): the common keys for
  /// completion, then the type's own definition.
  private static func dispatch(_ kind: SceneObject, description: String, types: [(name: String, definition: String)])
    -> JSONValue
  {
    let common = SceneFormat.keys(of: kind)
    return .object([
      ("description", .string(description)),
      ("type", .string("object")),
      ("required", .array(common.filter(\.isRequired).map { .string($0.name) })),
      ("properties", .object(common.map { ($0.name, property($0)) })),
      (
        "allOf",
        .array(
          types.map { type in
            .object([
              (
                "if",
                .object([
                  ("properties", .object([("type", .object([("const", .string(type.name))]))])),
                  ("required", .array([.string("type")])),
                ])
              ),
              ("then", .object([("$ref", .string("#/$defs/\(type.definition)"))])),
            ])
          })
      ),
    ])
  }

  /// One type's own object: its keys, with `type` fixed to the type's name.
  private static func typed(_ keys: [SceneKey], type: String, description: String) -> JSONValue {
    var properties = object(keys: keys, description: description)
    if let i = properties.firstIndex(where: { $0.key == "properties" }),
      case .object(var props) = properties[i].value,
      let t = props.firstIndex(where: { $0.key == "type" })
    {
      props[t].value = .object([("const", .string(type))])
      properties[i].value = .object(props)
    }
    return .object(properties)
  }

  private static func object(_ kind: SceneObject) -> [(key: String, value: JSONValue)] {
    let descriptions: [SceneObject: String] = [
      .scene:
        "Windows, views and gesture recognizers for touchd; every recognizer publishes its action when it fires.",
      .window: "One screen's window: the root of a view tree.",
      .size: "A size in points.",
      .view: "A rectangle that can be hit by touches and carry gesture recognizers.",
      .frame: "A frame in the superview's coordinates, in points.",
      .recognizer: "A gesture recognizer.",
      .scroll: "A scroll view's properties (UIScrollView's names and defaults); the view's subviews are its content.",
      .point: "A point, in points.",
      .insets: "Insets from each edge, in points.",
      .zoom:
        "A zoom a recognizer makes when it recognizes: the scroll view zooms in around the gesture's location, or back out when zoomed in.",
      .keys: "Key devices and the presses their keys make (UIPress), delivered to the window's first responder.",
      .forward:
        "Forwarding to a virtual touchscreen: the window's touchscreens are grabbed, and every touch no recognizer claims goes on to the compositor.",
      .voiceOverActions: "The scene's actions for VoiceOver's escape and magic tap.",
      .penPair: "A pen and the touchscreen of the same panel, for rejecting a resting hand's touches.",
      .signature: "A signature pad: what draws on it, and the shortest stroke kept.",
      .speech:
        "How VoiceOver's words are spoken: speech-dispatcher's SSIP socket, the language, rate and voice.",
      .accessibility:
        "What a screen reader makes of the view: UIKit's UIAccessibility properties (label, hint, value, traits, element, hidden, modal, activationPoint, frame).",
    ]
    return object(keys: SceneFormat.keys(of: kind), description: descriptions[kind] ?? "")
  }

  private static func object(keys: [SceneKey], description: String) -> [(key: String, value: JSONValue)] {
    var out: [(key: String, value: JSONValue)] = [("description", .string(description)), ("type", .string("object"))]
    let required = keys.filter(\.isRequired)
    if !required.isEmpty { out.append(("required", .array(required.map { .string($0.name) }))) }
    out.append(("properties", .object(keys.map { ($0.name, property($0)) })))
    out.append(("additionalProperties", .bool(false)))
    return out
  }

  private static func property(_ key: SceneKey) -> JSONValue {
    var out: [(key: String, value: JSONValue)] = [("description", .string(key.summary))]
    switch key.kind {
    case .string: out += [("type", .string("string")), ("minLength", .number(1))]
    case .bool: out += [("type", .string("boolean"))]
    case .integer(let minimum, let maximum):
      out += [("type", .string("integer")), ("minimum", .number(Double(minimum)))]
      if let maximum { out.append(("maximum", .number(Double(maximum)))) }
    case .number(let minimum, let maximum):
      out.append(("type", .string("number")))
      if let minimum { out.append(("minimum", .number(minimum))) }
      if let maximum { out.append(("maximum", .number(maximum))) }
    case .positiveNumber: out += [("type", .string("number")), ("exclusiveMinimum", .number(0))]
    case .stringList, .idList:
      out += [
        ("type", .string("array")), ("items", .object([("type", .string("string")), ("minLength", .number(1))])),
      ]
    case .options(let names):
      let names = JSONValue.array(names.map { .string($0) })
      out.append(
        (
          "anyOf",
          .array([
            .object([("enum", names)]),
            .object([("type", .string("array")), ("items", .object([("enum", names)])), ("minItems", .number(1))]),
          ])
        ))
    case .choice(let names): out += [("enum", .array(names.map { .string($0) }))]
    case .boolOrChoice(let names):
      out.append(
        (
          "anyOf",
          .array([.object([("type", .string("boolean"))]), .object([("enum", .array(names.map { .string($0) }))])])
        ))
    case .version: out += [("const", .number(Double(SceneFormat.version)))]
    case .rotation: out += [("enum", .array([0, 90, 180, 270].map { .number($0) }))]
    case .calibration:
      out += [
        ("type", .string("array")), ("items", .object([("type", .string("number"))])), ("minItems", .number(6)),
        ("maxItems", .number(6)),
      ]
    case .object(let object): out += [("$ref", .string("#/$defs/\(object.rawValue)"))]
    case .list(let object):
      out += [("type", .string("array")), ("items", .object([("$ref", .string("#/$defs/\(object.rawValue)"))]))]
    case .recognizerType: out += [("enum", .array(RecognizerType.allCases.map { .string($0.rawValue) }))]
    case .decelerationRate:
      let names = Scene.Scroll.decelerationRates.sorted { $0.value > $1.value }.map { JSONValue.string($0.key) }
      out.append(
        (
          "anyOf",
          .array([
            .object([("enum", .array(names))]),
            .object([("type", .string("number")), ("exclusiveMinimum", .number(0)), ("exclusiveMaximum", .number(1))]),
          ])
        ))
    case .controlType: out += [("enum", .array(Scene.Control.Kind.allCases.map { .string($0.rawValue) }))]
    case .nonEmptyStringList:
      out += [
        ("type", .string("array")), ("items", .object([("type", .string("string")), ("minLength", .number(1))])),
        ("minItems", .number(1)),
      ]
    case .controlActions:
      out += [
        ("type", .string("object")),
        ("propertyNames", .object([("enum", .array(SceneFormat.controlEvents.map { .string($0) }))])),
        ("additionalProperties", .object([("type", .string("string")), ("minLength", .number(1))])),
      ]
    case .keyMap:
      out += [
        ("type", .string("object")),
        ("propertyNames", .object([("enum", .array(SceneFormat.keyNames.map { .string($0) }))])),
        ("additionalProperties", pressType),
      ]
    case .pressTypes:
      out.append(("anyOf", .array([pressType, .object([("type", .string("array")), ("items", pressType)])])))
    case .viewID: out += [("type", .string("string")), ("minLength", .number(1))]
    }
    if let value = key.defaultValue { out.append(("default", value)) }
    return .object(out)
  }

  /// A reference to ``pressTypeDefinition``.
  private static let pressType: JSONValue = .object([("$ref", .string("#/$defs/pressType"))])

  /// `pressType`: one of UIKit's names, or a name of the scene's own.
  private static var pressTypeDefinition: JSONValue {
    .object([
      ("description", .string("A press type: UIKit's UIPress.PressType name or a name of the scene's own.")),
      (
        "anyOf",
        .array([
          .object([("enum", .array(SceneFormat.pressTypes.map { .string($0) }))]),
          .object([("type", .string("string")), ("pattern", .string(SceneFormat.pressTypePattern))]),
        ])
      ),
    ])
  }
}
