/// Turns one key device's kernel events (a kiosk keypad, gpio-keys buttons, the keys of a
/// touchscreen a scene window names in `keys.devices`) into ``KeyFrame``s, for live devices and
/// recordings alike.
///
/// - `EV_KEY` value 1 presses a key (`.down`), value 0 releases it (`.up`); value 2, the kernel's
///   autorepeat, makes no change: UIKit sends no repeated presses.
/// - The headphone jack's switch (`EV_SW` `SW_HEADPHONE_INSERT`) is a key that stays down while
///   headphones are plugged in: value 1 is ``headphoneSwitch`` down, 0 up. A kiosk's EZ Access
///   keypad and its headphone jack are read alike (issue #40: plugging in headphones turns
///   VoiceOver on).
/// - A frame is returned at `SYN_REPORT` when it has changes, in the order the device reported them.
/// - A down for a key already down, or an up for a key that is not down, is dropped: the kernel never
///   sends them, but a key cancelled by a resync or by ``cancelAll(at:)`` is released later.
/// - Codes that belong to touch and pointer devices are never keys (``isKey(_:)``), so a
///   touchscreen's `BTN_TOUCH` never makes a press.
/// - A frame that reaches ``maximumFrameChanges`` changes without `SYN_REPORT` (only a recording can
///   hold one) is handed out at that change, so memory stays bounded: the kernel never delivers such
///   a frame, it ends a packet that fills its buffer of `max_vals` values with a `SYN_REPORT` of its
///   own (drivers/input/input.c, `input_handle_event`: `dev->num_vals >= dev->max_vals - 2`; a
///   keypad's `max_vals` is about 10).
///
/// Lost events (`SYN_DROPPED`) follow ``FrameAssembler``:
/// - Live, libevdev resyncs: ``beginSync()``, the sync events through ``process(_:)``, then
///   ``endSync(at:)``. A key that was down and is up after the resync ends `.cancelled`, not `.up`:
///   its release was among the lost events, and UIKit cancels a press whose end the system lost. A key
///   pressed during the loss and still down begins (`.down`); a key down before and after continues.
/// - In a recording, which has no device to resync from, a `SYN_DROPPED` cancels every key down at
///   once and the events up to and including the next `SYN_REPORT` are discarded, as libevdev
///   prescribes; a key still held is released later by an up that is dropped.
///
/// # Thread safety
/// Not thread-safe: one owner (the device's queue, or the replay's thread) makes every call.
public final class KeyAssembler {
  /// The device this assembler reads.
  public let device: DeviceDescription

  /// The keys whose down a returned frame reported and whose end none did, in press order.
  private var reported: [UInt16] = []
  /// The keys down as the events so far say (reported or not), in press order: what the duplicate
  /// checks and a resync compare against.
  private var held: [UInt16] = []
  /// The changes of the frame being assembled (not yet in `reported`).
  private var pending: [KeyChange] = []
  private var discarding = false
  private var syncing = false

  /// The most changes a frame holds; see the type's documentation.
  public static let maximumFrameChanges = 64

  /// The code of the headphone switch's changes: past `KEY_MAX` (0x2ff), so no key's, and
  /// `SW_HEADPHONE_INSERT` above it.
  public static let headphoneSwitch: UInt16 = 0x300 + SW.headphoneInsert

  /// Reads `device`; no key is down at first.
  public init(device: DeviceDescription) {
    self.device = device
    reported.reserveCapacity(8)
    held.reserveCapacity(8)
    pending.reserveCapacity(8)
  }

  /// The keys down as reported in frames so far, in press order.
  public var keysDown: [UInt16] { reported }

  /// Whether `code` is a key that makes presses: every `EV_KEY` code except `KEY_RESERVED`, the mouse
  /// buttons and the digitizer codes (`BTN_TOOL_*`, `BTN_TOUCH`, `BTN_STYLUS*`), which belong to the
  /// touch and pointer side of a device.
  public static func isKey(_ code: UInt16) -> Bool {
    code != KeyCodeRange.reserved && !KeyCodeRange.mouseButtons.contains(code)
      && !KeyCodeRange.digitizer.contains(code)
  }

  /// Whether `device` reports any code that ``isKey(_:)`` takes, or the headphone switch: a device
  /// that could be a key device.
  public static func hasKeys(_ device: DeviceDescription) -> Bool {
    (device.events[KeyCodeRange.evKey]?.contains(where: isKey) ?? false) || hasHeadphoneSwitch(device)
  }

  /// The kernel's name of a change's code: the key's (`KEY_ENTER`), or `SW_HEADPHONE_INSERT` for
  /// ``headphoneSwitch``; nil when libevdev's table has none.
  public static func name(of code: UInt16) -> String? {
    code == headphoneSwitch
      ? EventNames.code(type: EV.sw, code: SW.headphoneInsert) : EventNames.code(type: EV.key, code: code)
  }

  /// Whether `device` reports `SW_HEADPHONE_INSERT`.
  public static func hasHeadphoneSwitch(_ device: DeviceDescription) -> Bool {
    device.events[EV.sw]?.contains(SW.headphoneInsert) ?? false
  }

  /// The switch's state when the device was opened (the kernel sends no event for it: libevdev
  /// reads it with `EVIOCGSW`): plugged in, the switch is down from the start, and that frame is
  /// returned; nil otherwise.
  public func seedHeadphones(plugged: Bool, at time: Timestamp) -> KeyFrame? {
    guard plugged, !held.contains(Self.headphoneSwitch) else { return nil }
    held.append(Self.headphoneSwitch)
    pending.append(KeyChange(code: Self.headphoneSwitch, phase: .down))
    return flush(at: time)
  }

  /// Feeds one event; returns a frame at `SYN_REPORT` when a key changed (nil otherwise).
  ///
  /// A `SYN_DROPPED` read here (a recording) cancels every key down and returns that frame at once.
  /// During ``beginSync()``…``endSync(at:)`` this always returns nil.
  public func process(_ event: InputEvent) -> KeyFrame? {
    if event.type == KeyCodeRange.evSyn {
      switch event.code {
      case KeyCodeRange.synReport:
        if discarding {
          discarding = false
          return nil
        }
        // A SYN_REPORT of value 1 closes events the kernel made itself: autorepeat, and the
        // releases `input_dev_release_keys()` sends for every held key when the device is
        // unregistered (drivers/input/input.c: `input_handle_event(dev, EV_SYN, SYN_REPORT, 1)`).
        // Those key-ups are not the user's: the press is cancelled, as for a vanished device
        // (measured in the VM suite's keypad-unplug-cancels: KEY_F1 0 then SYN_REPORT 1 on unplug).
        if event.value == 1 {
          for i in pending.indices where pending[i].phase == .up { pending[i].phase = .cancelled }
        }
        return syncing ? nil : flush(at: event.time)
      case KeyCodeRange.synDropped:
        if syncing { return nil }
        let frame = cancelAll(at: event.time)
        discarding = true
        return frame
      default:
        return nil
      }
    }
    let code: UInt16
    if event.type == KeyCodeRange.evKey, Self.isKey(event.code) {
      code = event.code
    } else if event.type == EV.sw, event.code == SW.headphoneInsert {
      code = Self.headphoneSwitch
    } else {
      return nil
    }
    guard !discarding else { return nil }
    switch event.value {
    case 1:
      guard !held.contains(code) else { return nil }
      held.append(code)
      if !syncing { pending.append(KeyChange(code: code, phase: .down)) }
    case 0:
      guard let index = held.firstIndex(of: code) else { return nil }
      held.remove(at: index)
      if !syncing { pending.append(KeyChange(code: code, phase: .up)) }
    default:
      // 2 is autorepeat: "0 for EV_KEY for release, 1 for keypress and 2 for autorepeat" (the
      // kernel's Documentation/input/input.rst, event interface).
      break
    }
    return pending.count >= Self.maximumFrameChanges ? flush(at: event.time) : nil
  }

  /// Hands out the frame being assembled and records what it reported.
  private func flush(at time: Timestamp) -> KeyFrame? {
    guard !pending.isEmpty else { return nil }
    for change in pending {
      if change.phase == .down {
        reported.append(change.code)
      } else {
        reported.removeAll { $0 == change.code }
      }
    }
    let frame = KeyFrame(time: time, changes: pending)
    pending.removeAll(keepingCapacity: true)
    return frame
  }

  /// Ends every key down with `.cancelled` (the device went away, the end of a recording, a
  /// `SYN_DROPPED` in a recording); nil when none is down. Changes of an unfinished frame are
  /// dropped, and a resync in progress is abandoned: the assembler starts over with no key down.
  public func cancelAll(at time: Timestamp) -> KeyFrame? {
    let changes = reported.map { KeyChange(code: $0, phase: .cancelled) }
    reported.removeAll(keepingCapacity: true)
    held.removeAll(keepingCapacity: true)
    pending.removeAll(keepingCapacity: true)
    syncing = false
    discarding = false
    return changes.isEmpty ? nil : KeyFrame(time: time, changes: changes)
  }

  /// Starts a live resync after `SYN_DROPPED` (libevdev `LIBEVDEV_READ_STATUS_SYNC`): feed the sync
  /// events through ``process(_:)``, which returns nil meanwhile, then call ``endSync(at:)``.
  ///
  /// Do not also feed the `SYN_DROPPED` itself to ``process(_:)``: that is the recording path and
  /// cancels every key.
  public func beginSync() {
    syncing = true
    discarding = false
  }

  /// Ends a resync: returns the frame in which keys released during the loss are cancelled (in press
  /// order) and keys pressed during it begin (in the order the events said); nil when nothing
  /// changed. The frame replaces the unfinished frame the loss interrupted.
  public func endSync(at time: Timestamp) -> KeyFrame? {
    guard syncing else { return nil }
    syncing = false
    pending.removeAll(keepingCapacity: true)
    var changes: [KeyChange] = []
    for code in reported where !held.contains(code) { changes.append(KeyChange(code: code, phase: .cancelled)) }
    for code in held where !reported.contains(code) { changes.append(KeyChange(code: code, phase: .down)) }
    reported = held
    return changes.isEmpty ? nil : KeyFrame(time: time, changes: changes)
  }
}

/// The kernel's numbers the key assembler needs, from `<linux/input-event-codes.h>` (kept here,
/// not in `EventCodes.swift`, which names the codes of the touch side).
enum KeyCodeRange {
  /// `EV_SYN`.
  static let evSyn: UInt16 = 0x00
  /// `EV_KEY`.
  static let evKey: UInt16 = 0x01
  /// `SYN_REPORT`.
  static let synReport: UInt16 = 0
  /// `SYN_DROPPED`.
  static let synDropped: UInt16 = 3
  /// `KEY_RESERVED`: never sent.
  static let reserved: UInt16 = 0
  /// `BTN_MOUSE` (`BTN_LEFT`, 0x110) through `BTN_TASK` (0x117): mouse buttons.
  static let mouseButtons: ClosedRange<UInt16> = 0x110...0x117
  /// `BTN_DIGI` (`BTN_TOOL_PEN`, 0x140) through `BTN_TOOL_QUADTAP` (0x14f): the digitizer codes,
  /// `BTN_TOOL_*`, `BTN_TOUCH`, `BTN_STYLUS`, `BTN_STYLUS2`, `BTN_STYLUS3`.
  static let digitizer: ClosedRange<UInt16> = 0x140...0x14f
}
