// The scene format's control tables: each control type's properties, the control events an
// `actions:` mapping names. The rest of the format is in SceneFormat.swift.

extension SceneFormat {
  /// The type-specific properties of a control type: UIKit's names and defaults (UISwitch.h,
  /// UISlider.h, UIStepper.h, UISegmentedControl.h, UIPageControl.h). A button has none beyond the
  /// common keys.
  public static func properties(of type: Scene.Control.Kind) -> [SceneKey] { propertiesByKind[type] }

  static func makeProperties(of type: Scene.Control.Kind) -> [SceneKey] {
    // The slider's and the stepper's shared properties, each with its class's header.
    let header = type == .stepper ? "UIStepper" : "UISlider"
    let value = SceneKey(
      "value", .number(minimum: nil, maximum: nil), default: .number(0),
      "The value, within minimumValue...maximumValue (\(header).value; \(header).h: default 0).")
    let minimumValue = SceneKey(
      "minimumValue", .number(minimum: nil, maximum: nil), default: .number(0),
      "The smallest value, less than maximumValue (\(header).minimumValue; \(header).h: default 0).")
    let continuous = SceneKey(
      "continuous", .bool, default: .bool(true),
      "When false valueChanged is sent once the finger lifts instead of at every change (\(header).isContinuous; \(header).h: default YES)."
    )
    switch type {
    case .button:
      return []
    case .switch:
      return [
        SceneKey(
          "on", .bool, default: .bool(false),
          "Whether the switch is on (UISwitch.isOn; UISwitch.h gives no default: a new switch is off).")
      ]
    case .slider:
      return [
        value, minimumValue,
        SceneKey(
          "maximumValue", .number(minimum: nil, maximum: nil),
          default: .number(Scene.Control.defaultMaximum(for: type)),
          "The largest value, greater than minimumValue (UISlider.maximumValue; UISlider.h: default 1.0)."),
        continuous,
      ]
    case .stepper:
      return [
        value, minimumValue,
        SceneKey(
          "maximumValue", .number(minimum: nil, maximum: nil),
          default: .number(Scene.Control.defaultMaximum(for: type)),
          "The largest value, greater than minimumValue (UIStepper.maximumValue; UIStepper.h: default 100)."),
        SceneKey(
          "stepValue", .positiveNumber, default: .number(1),
          "How much one press of + or − changes the value; greater than 0 (stepValue; UIStepper.h: default 1)."),
        continuous,
        SceneKey(
          "autorepeat", .bool, default: .bool(true),
          "Holding + or − keeps changing the value (autorepeat; UIStepper.h: default YES)."),
      ]
    case .segmented:
      return [
        SceneKey(
          "segments", .nonEmptyStringList, required: true,
          "The segments' titles, left to right; at least one (UISegmentedControl(items:), numberOfSegments)."),
        SceneKey(
          "selectedSegmentIndex", .integer(minimum: -1), default: .number(-1),
          "The selected segment, from 0; -1 selects none (selectedSegmentIndex; UISegmentedControl.h: default UISegmentedControlNoSegment, -1)."
        ),
      ]
    case .pageControl:
      return [
        SceneKey(
          "numberOfPages", .integer(minimum: 0), default: .number(0),
          "How many page indicators the control shows (numberOfPages; UIPageControl.h: default 0)."),
        SceneKey(
          "currentPage", .integer(minimum: 0), default: .number(0),
          "The page shown, from 0; less than numberOfPages (currentPage; UIPageControl.h: default 0)."),
        SceneKey(
          "hidesForSinglePage", .bool, default: .bool(false),
          "With one page the control is hidden: not drawn and not hit (hidesForSinglePage; UIPageControl.h: default NO)."
        ),
        SceneKey(
          "allowsContinuousInteraction", .bool, default: .bool(true),
          "A drag along the indicators scrubs page by page (allowsContinuousInteraction, iOS 14; UIPageControl.h: default YES)."
        ),
        SceneKey(
          "pages", .string,
          "The id of a paging scroll view (pagingEnabled: true) the control follows: scrolling it changes currentPage, a change on the control scrolls it to that page, animated."
        ),
      ]
    }
  }

  /// Every property name of any control type.
  public static var allControlPropertyNames: [String] {
    var seen = Set<String>()
    return Scene.Control.Kind.allCases.flatMap { properties(of: $0).map(\.name) }.filter { seen.insert($0).inserted }
  }

  /// What a control type is called in messages and docs: `segmented control` for `segmented`,
  /// `page control` for `pageControl`.
  public static func controlTypeName(_ type: Scene.Control.Kind) -> String {
    switch type {
    case .segmented: "segmented control"
    case .pageControl: "page control"
    default: type.rawValue
    }
  }

  /// The control events an `actions:` mapping may name: UIKit's `UIControl.Event` case names, in
  /// UIKit's bit order (UIControl.h), as TouchDelivery's `ControlEvents.named`.
  public static let controlEvents = [
    "touchDown", "touchDownRepeat", "touchDragInside", "touchDragOutside", "touchDragEnter", "touchDragExit",
    "touchUpInside", "touchUpOutside", "touchCancel", "valueChanged", "primaryActionTriggered",
  ]
}
