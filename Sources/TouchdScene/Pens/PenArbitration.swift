// A hand resting on the glass while a pen signs: the touchscreen's touches are rejected while its
// panel's pen is near, as libinput's touch arbitration does (docs/pens.md, "A resting hand").
import TouchDelivery
import TouchdInput

/// libinput's touch arbitration between a pen and the touchscreen of the same panel
/// (src/evdev-tablet.c, `tablet_toggle_touch_device`; src/evdev-fallback.c,
/// `fallback_interface_toggle_touch` and `fallback_arbitrate_touch`):
///
/// - A pen near without tilt (`ABS_TILT_X` 0, or none) ignores the whole panel
///   (`ARBITRATION_IGNORE_ALL`): a touch that begins then is never delivered, to its end; touches
///   down when it comes are cancelled (`fallback_return_to_neutral_state`) and their fingers
///   ignored until they lift. For ``timeout`` after the pen leaves, touches that begin are still
///   ignored: "a palm that touches down right after the pen leaves is not a tap" (libinput's
///   comment at the 90 ms it waits). libinput keeps ignoring the whole panel (its
///   `in_arbitration`) until then even if the pen tilts meanwhile; so does touchd.
/// - A pen that comes near tilted ignores only a rectangle where the writing hand rests
///   (`ARBITRATION_IGNORE_RECT`, `tablet_calculate_arbitration_rect`): 200 mm wide from 20 mm
///   left of the tip when the pen's top leans right (`ABS_TILT_X` > 0: a right hand), else
///   ending 20 mm right of it (a left hand), from 100 mm above the tip, 250 mm tall, clipped at
///   the panel's top and left edges. It follows the tip (`tablet_update_touch_device_rect`);
///   touches inside it when it is set are cancelled (`cancel_touches`), touches that begin inside
///   it are ignored to their end (`fallback_arbitrate_touch`), and the rest of the panel works: a
///   finger outside taps. The pen's and the touchscreen's millimetres are their axes over their
///   resolutions (one unit a millimetre without one, libinput's fake resolution): one panel's
///   nodes share an origin. Leaving from this mode ignores nothing after (no 90 ms: libinput's
///   timer only ends `in_arbitration`); the pen losing its tilt while near ignores all again.
///
/// A pen and a touchscreen are paired (libinput's pairing, `tablet_setup_touch_arbitration`, by
/// its device group): by a window's `penPairs:`; else by udev's `LIBINPUT_DEVICE_GROUP`, which
/// libinput's udev helper computes from the parent device's bus, ids and `phys`, with libwacom's
/// pairings where libwacom is installed (`libinput-device-group`, `wacom_handle_paired`); else
/// by equal bus, vendor and product, as the nodes of one HID device are (what a replay, which
/// has no udev, goes by).
final class PenArbitration {
  /// How long after a pen leaves proximity its panel's new touches are still ignored: libinput's
  /// 90 ms (src/evdev-fallback.c, `fallback_interface_toggle_touch`: `time + ms2us(90)`).
  static let timeout = 0.09

  /// udev's property naming libinput's device group (udev/80-libinput-device-groups.rules).
  static let deviceGroupProperty = "LIBINPUT_DEVICE_GROUP"

  struct Device {
    var description: DeviceDescription
    var path: String?
    var properties: [String: String]
    var isPen: Bool { description.isPenDisplay }
  }

  /// The rectangle a tilted pen's hand rests in, in millimetres from the panel's top left corner.
  struct Rectangle: Hashable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    func contains(_ point: (x: Double, y: Double)) -> Bool {
      point.x >= x && point.x < x + width && point.y >= y && point.y < y + height
    }
  }

  /// libinput's rectangle (`tablet_calculate_arbitration_rect`): from ``rectangleBeside`` mm on
  /// the tip's far side, ``rectangleWidth`` wide; from ``rectangleAbove`` mm above the tip,
  /// ``rectangleHeight`` tall.
  static let rectangleBeside = 20.0
  static let rectangleWidth = 200.0
  static let rectangleAbove = 100.0
  static let rectangleHeight = 250.0

  /// The hand's rectangle of a pen at `tip` (mm) leaning right when `tiltX` > 0, clipped at the top
  /// and left edges as libinput clips it.
  static func rectangle(tip: (x: Double, y: Double), tiltX: Double) -> Rectangle {
    var r = Rectangle(
      x: tiltX > 0 ? tip.x - rectangleBeside : tip.x + rectangleBeside - rectangleWidth, y: tip.y - rectangleAbove,
      width: rectangleWidth, height: rectangleHeight)
    if r.x < 0 {
      r.width += r.x
      r.x = 0
    }
    if r.y < 0 {
      r.height += r.y
      r.y = 0
    }
    return r
  }

  /// Device-normalized `x`, `y` on `device` in millimetres: its position axes over their
  /// resolutions, one unit a millimetre without one (libinput's `evdev_fix_abs_resolution`).
  static func millimetres(_ x: Double, _ y: Double, on device: DeviceDescription) -> (x: Double, y: Double) {
    let axes = VirtualTouchscreen.positionAxes(of: device)
    func mm(_ fraction: Double, _ axis: AbsInfo) -> Double {
      fraction * (Double(axis.maximum) - Double(axis.minimum)) / Double(axis.resolution > 0 ? axis.resolution : 1)
    }
    return (mm(x, axes.x), mm(y, axes.y))
  }

  /// A pen's presence: near now (and the hand's rectangle, nil while it ignores the whole panel),
  /// whether it ignores the whole panel (libinput's `in_arbitration`: from the pen near untilted
  /// until ``timeout`` after it left), and when it last left.
  private struct Presence {
    var near = false
    var rectangle: Rectangle?
    var ignoresAll = false
    var leftAt: Double?

    func ignoringAll(at now: Double) -> Bool {
      ignoresAll && (leftAt.map { now - $0 < PenArbitration.timeout } ?? true)
    }
  }

  /// A touchscreen's contacts: where each live one is (device-normalized, to cancel it), the
  /// window they go to, and those held back until they end. A class: a frame updates it in place
  /// (a struct taken out of the dictionary and written back copied its tables every frame).
  private final class Panel {
    var window: Int?
    var live: [TouchID: Contact] = [:]
    var rejected: Set<TouchID> = []
  }

  private(set) var devices: [Int: Device] = [:]
  private var presence: [Int: Presence] = [:]
  private var panels: [Int: Panel] = [:]
  /// Each pen's paired touchscreens, and each touchscreen's pens (recomputed as devices come and go).
  private var touchscreensOfPen: [Int: [Int]] = [:]
  private var pensOfTouchscreen: [Int: [Int]] = [:]
  private let pairs: [Scene.PenPair]

  init(scene: Scene) {
    pairs = scene.windows.flatMap(\.penPairs)
  }

  /// Whether any pen is paired with a touchscreen (else every touchscreen frame passes untouched).
  var hasPairs: Bool { !touchscreensOfPen.isEmpty }

  func add(source: Int, _ device: Device) {
    devices[source] = device
    repair()
  }

  func remove(source: Int) {
    devices[source] = nil
    presence[source] = nil
    panels[source] = nil
    repair()
  }

  private func repair() {
    touchscreensOfPen = [:]
    pensOfTouchscreen = [:]
    for (pen, p) in devices where p.isPen {
      for (panel, t) in devices where !t.isPen && panel != pen && paired(p, t) {
        touchscreensOfPen[pen, default: []].append(panel)
        pensOfTouchscreen[panel, default: []].append(pen)
      }
    }
  }

  private func paired(_ pen: Device, _ panel: Device) -> Bool {
    let named = pairs.contains { pair in
      SceneRuntime.devicePattern(pair.pen, matches: pen.description, path: pen.path, properties: pen.properties)
        && SceneRuntime.devicePattern(
          pair.touchscreen, matches: panel.description, path: panel.path, properties: panel.properties)
    }
    if named { return true }
    if let a = pen.properties[Self.deviceGroupProperty], let b = panel.properties[Self.deviceGroupProperty] {
      return a == b
    }
    let (a, b) = (pen.description.id, panel.description.id)
    return a.bustype == b.bustype && a.vendor == b.vendor && a.product == b.product
  }

  /// A pen's frame: its presence. Returns the frames that cancel the touches down on the
  /// touchscreens it is paired with when it comes near (each with that touchscreen's source and
  /// window), for the runtime to deliver before this frame.
  func penFrame(_ frame: TouchFrame, source: Int, rejects: (Int) -> Bool) -> [(
    source: Int, window: Int, frame: TouchFrame
  )] {
    guard let pen = frame.pen, let panelSources = touchscreensOfPen[source], let penDevice = devices[source] else {
      return []
    }
    var state = presence[source] ?? Presence()
    defer { presence[source] = state }
    guard pen.inProximity else {
      if state.near {
        state.near = false
        state.rectangle = nil
        if state.ignoresAll { state.leftAt = frame.time.seconds }
      }
      return []
    }
    let now = frame.time.seconds
    let entering = !state.near
    // An earlier leave's 90 ms over: nothing is ignored but what this pen starts now.
    if entering && !state.ignoringAll(at: now) { state.ignoresAll = false }
    state.near = true
    // What the frame starts (libinput's `tablet_toggle_touch_device`): ignoring the whole panel
    // (cancel everything down), or a rectangle (cancel what is down inside it); nothing when the
    // mode goes on (a rectangle follows the tip). While near, `rectangle` nil is ignoring all.
    var cancelInside: Rectangle??
    if pen.tiltX == 0 {
      if entering || state.rectangle != nil { cancelInside = .some(nil) }
      state.rectangle = nil
      state.ignoresAll = true
      state.leftAt = nil
    } else {
      let r = Self.rectangle(tip: Self.millimetres(pen.x, pen.y, on: penDevice.description), tiltX: pen.tiltX)
      if entering || state.rectangle == nil { cancelInside = .some(r) }
      state.rectangle = r
    }
    guard let cancelInside else { return [] }
    var cancels: [(source: Int, window: Int, frame: TouchFrame)] = []
    for panelSource in panelSources {
      guard let panel = panels[panelSource], let window = panel.window, rejects(window), !panel.live.isEmpty,
        let panelDevice = devices[panelSource]
      else {
        continue
      }
      let inside = panel.live.values.filter { contact in
        cancelInside.map { $0.contains(Self.millimetres(contact.x, contact.y, on: panelDevice.description)) } ?? true
      }
      guard !inside.isEmpty else { continue }
      let contacts = inside.sorted { $0.id < $1.id }.map { contact -> Contact in
        var c = contact
        c.phase = .cancelled
        return c
      }
      for contact in contacts {
        panel.rejected.insert(contact.id)
        panel.live[contact.id] = nil
      }
      cancels.append((panelSource, window, TouchFrame(time: frame.time, contacts: contacts)))
    }
    return cancels
  }

  /// A touchscreen's frame for window `window`: the frame without the contacts the arbitration
  /// rejects (`rejects(window)`: whether the window's `penRejectsTouches` is on).
  func touchscreenFrame(_ frame: TouchFrame, source: Int, window: Int, rejects: Bool) -> TouchFrame {
    let panel: Panel
    if let known = panels[source] {
      panel = known
    } else {
      panel = Panel()
      panels[source] = panel
    }
    panel.window = window
    let now = frame.time.seconds
    // The pens that ignore touches now: the whole panel, or their rectangles.
    let pens = rejects ? pensOfTouchscreen[source] ?? [] : []
    func arbitrates(_ state: Presence) -> Bool { state.ignoringAll(at: now) || (state.near && state.rectangle != nil) }
    guard pens.contains(where: { presence[$0].map(arbitrates) ?? false }) || !panel.rejected.isEmpty else {
      track(frame.contacts, in: panel)
      return frame
    }
    let device = devices[source]?.description
    /// Whether a touch beginning at `contact` is ignored: a pen ignores all, or it is in a rectangle.
    func ignores(_ contact: Contact) -> Bool {
      for pen in pens {
        guard let state = presence[pen] else { continue }
        if state.ignoringAll(at: now) { return true }
        if state.near, let r = state.rectangle, let device,
          r.contains(Self.millimetres(contact.x, contact.y, on: device))
        {
          return true
        }
      }
      return false
    }
    var kept = frame
    kept.contacts = frame.contacts.filter { contact in
      if panel.rejected.contains(contact.id) {
        if contact.phase.isTerminal { panel.rejected.remove(contact.id) }
        return false
      }
      guard contact.phase == .began else { return true }
      if ignores(contact) {
        panel.rejected.insert(contact.id)
        return false
      }
      return true
    }
    track(kept.contacts, in: panel)
    return kept
  }

  private func track(_ contacts: [Contact], in panel: Panel) {
    for contact in contacts {
      if contact.phase.isTerminal { panel.live[contact.id] = nil } else { panel.live[contact.id] = contact }
    }
  }
}
