// A hand resting on the glass while a pen signs: the touchscreen's touches are rejected while its
// panel's pen is near, as libinput's touch arbitration does (docs/pens.md, "A resting hand").
import TouchDelivery
import TouchdInput

/// libinput's touch arbitration between a pen and the touchscreen of the same panel
/// (src/evdev-tablet.c, `tablet_toggle_touch_device`; src/evdev-fallback.c,
/// `fallback_interface_toggle_touch` and `fallback_arbitrate_touch`):
///
/// - While the pen is in proximity, the paired touchscreen's touches are ignored: a touch that
///   begins then is never delivered, to its end. libinput's `ARBITRATION_IGNORE_ALL`; its
///   `ARBITRATION_IGNORE_RECT` (a tilted pen ignores only a 200 × 250 mm rectangle around the
///   tip, on the side the hand rests) is not done: touchd ignores the whole panel.
/// - Touches down when the pen comes near are cancelled (`fallback_return_to_neutral_state`),
///   and their fingers ignored until they lift.
/// - For ``timeout`` after the pen leaves, touches that begin are still ignored: "a palm that
///   touches down right after the pen leaves is not a tap" (libinput's comment at the 90 ms it
///   waits).
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

  /// A pen's presence: near now, or when it last left (nil: never near).
  private struct Presence {
    var near = false
    var leftAt: Double?
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
    guard let pen = frame.pen, let panelSources = touchscreensOfPen[source] else { return [] }
    var state = presence[source] ?? Presence()
    defer { presence[source] = state }
    guard pen.inProximity != state.near else { return [] }
    state.near = pen.inProximity
    guard pen.inProximity else {
      state.leftAt = frame.time.seconds
      return []
    }
    var cancels: [(source: Int, window: Int, frame: TouchFrame)] = []
    for panelSource in panelSources {
      guard let panel = panels[panelSource], let window = panel.window, rejects(window), !panel.live.isEmpty else {
        continue
      }
      let contacts = panel.live.values.sorted { $0.id < $1.id }.map { contact -> Contact in
        var c = contact
        c.phase = .cancelled
        return c
      }
      panel.rejected.formUnion(panel.live.keys)
      panel.live = [:]
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
    let near =
      rejects
      && (pensOfTouchscreen[source] ?? []).contains { pen in
        guard let state = presence[pen] else { return false }
        return state.near || state.leftAt.map { now - $0 < Self.timeout } ?? false
      }
    guard near || !panel.rejected.isEmpty else {
      track(frame.contacts, in: panel)
      return frame
    }
    var kept = frame
    kept.contacts = frame.contacts.filter { contact in
      if panel.rejected.contains(contact.id) {
        if contact.phase.isTerminal { panel.rejected.remove(contact.id) }
        return false
      }
      if near && contact.phase == .began {
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
