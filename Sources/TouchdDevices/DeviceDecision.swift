import TouchdInput

/// What touchd reads from udev's database about one input device.
public struct UdevProperties: Hashable, Sendable {
  /// The udev property that keeps touchd off a device: a panel another program must own, or a
  /// virtual device touchd made itself.
  public static let ignoreProperty = "TOUCHD_IGNORE"

  /// udev's `ID_INPUT_*` classes; nil when udev has no answer (no `ID_INPUT=1`).
  public var classes: InputClasses?
  /// `TOUCHD_IGNORE=1`.
  public var ignore: Bool
  /// `LIBINPUT_CALIBRATION_MATRIX` (six values, libinput's meaning), nil when absent or invalid.
  public var calibrationMatrix: [Double]?
  /// Every property of the device in udev's database (`ID_PATH`, `ID_SERIAL`, a local rule's
  /// `TOUCHD_WINDOW`, …): what a window's `devices: ["ID_PATH=…"]` pattern matches.
  public var values: [String: String]

  public init(
    classes: InputClasses?, ignore: Bool = false, calibrationMatrix: [Double]? = nil, values: [String: String] = [:]
  ) {
    self.classes = classes
    self.ignore = ignore
    self.calibrationMatrix = calibrationMatrix
    self.values = values
  }

  /// The properties that tell one device from another of the same model across reboots, in the
  /// order `touchctl devices` offers them as `devices:` patterns: where it is plugged in
  /// (`ID_PATH`), its serial number (`ID_SERIAL`; absent for many panels), and what local rules
  /// set for touchd (`TOUCHD_*`, but `TOUCHD_IGNORE`).
  public var identifying: [(key: String, value: String)] {
    var out: [(key: String, value: String)] = []
    for key in ["ID_PATH", "ID_SERIAL"] { if let value = values[key], !value.isEmpty { out.append((key, value)) } }
    for (key, value) in values.sorted(by: { $0.key < $1.key })
    where key.hasPrefix("TOUCHD_") && key != Self.ignoreProperty {
      out.append((key, value))
    }
    return out
  }
}

/// Whether touchd reads an input device as a touchscreen, who decided, why, and what would
/// change it. Built from what the device and udev say, so it is the same for the daemon,
/// `touchctl devices` and the tests. A value; any thread.
public struct DeviceDecision: Hashable, Sendable {
  /// What decided.
  public enum Source: String, Hashable, Sendable {
    /// udev's `ID_INPUT_TOUCHSCREEN` (its `input_id` builtin, hwdb entries, local rules).
    case udev
    /// touchd's copy of udev's `input_id` rule: udev has no answer for the device.
    case touchdRule = "touchd-rule"
    /// The udev property `TOUCHD_IGNORE=1`.
    case ignoreProperty = "TOUCHD_IGNORE"
    /// The device is one touchd created itself (its phys starts with `touchd/`).
    case ownDevice = "own-device"
    /// The node could not be opened or read.
    case unreadable
  }

  /// The phys prefix of every virtual device touchd creates, so it never reads its own output
  /// even without udev; the udev rule `70-touchd.rules` sets `TOUCHD_IGNORE=1` for the same prefix.
  /// `libevdev_uinput_create_from_device` does not copy a description's phys: a creator sets it
  /// with `UI_SET_PHYS` on its own `/dev/uinput` fd before handing that fd to libevdev.
  public static let ownPhysPrefix = "touchd/"

  /// The touchscreen kind when taken, else `.notTouchscreen` with the reason.
  public var kind: TouchscreenKind
  public var source: Source
  /// Why it is (or is not) taken, in words.
  public var reason: String
  /// What would change the decision (a udev property, a rule), nil when nothing sensible would.
  public var remedy: String?
  /// Whether the device has absolute axes and a sign of touch: one a user may expect touchd to
  /// take, so the daemon reports it at `notice` level when it is not taken.
  public var looksLikeTouchDevice: Bool

  /// Whether touchd reads the device as a touchscreen.
  public var isTouchscreen: Bool { kind.isTouchscreen }

  public init(
    kind: TouchscreenKind, source: Source, reason: String, remedy: String? = nil, looksLikeTouchDevice: Bool
  ) {
    self.kind = kind
    self.source = source
    self.reason = reason
    self.remedy = remedy
    self.looksLikeTouchDevice = looksLikeTouchDevice
  }

  /// Decides, in this order: a node that cannot be read is not taken; `TOUCHD_IGNORE=1` keeps
  /// touchd off; touchd's own virtual devices are skipped; then udev's `ID_INPUT_TOUCHSCREEN`
  /// decides when udev has an answer, and touchd's copy of udev's rule when it has none.
  public static func decide(
    description: DeviceDescription?, udev: UdevProperties?, phys: String? = nil, openError: DeviceError? = nil
  ) -> DeviceDecision {
    guard let description else {
      let why = openError.map { "\($0)" } ?? "not opened"
      return DeviceDecision(
        kind: .notTouchscreen(reason: why), source: .unreadable, reason: why,
        remedy: openError?.isPermissionDenied == true
          ? "run touchd as root or in the `input` group (the service's SupplementaryGroups=input)" : nil,
        looksLikeTouchDevice: udev?.classes?.contains(.touchscreen) ?? false)
    }
    let looksLikeTouch = description.looksLikeTouchDevice || (udev?.classes?.contains(.touchscreen) ?? false)
    if udev?.ignore == true {
      let why = "udev sets \(UdevProperties.ignoreProperty)=1 on it (a rule gives it to another program)"
      return DeviceDecision(
        kind: .notTouchscreen(reason: why), source: .ignoreProperty, reason: why,
        remedy: "remove the udev rule that sets ENV{\(UdevProperties.ignoreProperty)}=\"1\" for it",
        looksLikeTouchDevice: looksLikeTouch)
    }
    if let phys, phys.hasPrefix(ownPhysPrefix) {
      let why = "a virtual device touchd created (phys \(phys))"
      return DeviceDecision(
        kind: .notTouchscreen(reason: why), source: .ownDevice, reason: why, looksLikeTouchDevice: false)
    }
    let classes = udev?.classes
    let kind = description.touchscreenKind(udev: classes)
    let source: Source = classes == nil ? .touchdRule : .udev
    switch kind {
    case .notTouchscreen(let why):
      // A rule helps where the classification said no, not where a touchscreen lacks the axes
      // or BTN_TOUCH touchd needs.
      var remedy: String?
      if looksLikeTouch && !(classes ?? description.udevInputClasses.classes).contains(.touchscreen) {
        remedy =
          classes == nil
          ? "udev has no record of it (is udevd running?); with udevd, a rule can set ENV{ID_INPUT_TOUCHSCREEN}=\"1\""
          : "a udev rule that sets ENV{ID_INPUT_TOUCHSCREEN}=\"1\" for it (see touchd's docs/operations.md)"
      }
      return DeviceDecision(
        kind: kind, source: source, reason: why, remedy: remedy, looksLikeTouchDevice: looksLikeTouch)
    case .pen:
      let why =
        classes == nil
        ? "by udev's input_id rule (udev has no record of it) a tablet, with INPUT_PROP_DIRECT: a pen display"
        : "udev classifies it as a tablet (ID_INPUT_TABLET=1), with INPUT_PROP_DIRECT: a pen display"
      return DeviceDecision(
        kind: kind, source: source, reason: why,
        remedy: "a udev rule that sets ENV{\(UdevProperties.ignoreProperty)}=\"1\" leaves it to other programs",
        looksLikeTouchDevice: true)
    default:
      let why =
        classes == nil
        ? "by udev's input_id rule (udev has no record of it): \(description.udevInputClasses.touchscreenReason)"
        : "udev classifies it as a touchscreen (ID_INPUT_TOUCHSCREEN=1)"
      return DeviceDecision(
        kind: kind, source: source, reason: why,
        remedy: classes == nil
          ? nil : "a udev rule that sets ENV{\(UdevProperties.ignoreProperty)}=\"1\" leaves it to other programs",
        looksLikeTouchDevice: true)
    }
  }
}
