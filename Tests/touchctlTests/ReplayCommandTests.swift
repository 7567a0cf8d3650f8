import Foundation
import Testing
import TouchdInput
import TouchdTestKit

/// `touchctl replay` decides which devices are touchscreens as the live daemon does without a
/// udev record: by udev's input_id rule.
@Suite("touchctl replay: which recordings are touchscreens")
struct ReplayCommandTests {
  /// A recording of `description` with one finger down and up, written as evemu to a temporary file.
  func recordingFile(_ description: DeviceDescription) throws -> String {
    let events = [
      InputEvent(time: Timestamp(microseconds: 0), type: EV.abs, code: ABS.mtSlot, value: 0),
      InputEvent(time: Timestamp(microseconds: 0), type: EV.abs, code: ABS.mtTrackingID, value: 1),
      InputEvent(time: Timestamp(microseconds: 0), type: EV.abs, code: ABS.mtPositionX, value: 100),
      InputEvent(time: Timestamp(microseconds: 0), type: EV.abs, code: ABS.mtPositionY, value: 100),
      InputEvent(time: Timestamp(microseconds: 0), type: EV.key, code: BTN.touch, value: 1),
      InputEvent(time: Timestamp(microseconds: 0), type: EV.syn, code: SYN.report, value: 0),
      InputEvent(time: Timestamp(microseconds: 50_000), type: EV.abs, code: ABS.mtTrackingID, value: -1),
      InputEvent(time: Timestamp(microseconds: 50_000), type: EV.key, code: BTN.touch, value: 0),
      InputEvent(time: Timestamp(microseconds: 50_000), type: EV.syn, code: SYN.report, value: 0),
    ]
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-replay-\(UUID()).evemu").path
    try EvemuWriter.write(Recording(description: description, events: events, source: path))
      .write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func device(keys: Set<UInt16>, properties: Set<UInt16>) -> DeviceDescription {
    let axes: [UInt16] = [ABS.x, ABS.y, ABS.mtSlot, ABS.mtPositionX, ABS.mtPositionY, ABS.mtTrackingID]
    return DeviceDescription(
      name: "Panel", id: InputID(bustype: 3, vendor: 0x0eef, product: 0x0001, version: 1), properties: properties,
      events: [EV.syn: [EV.syn, EV.key, EV.abs], EV.key: keys, EV.abs: Set(axes)],
      absInfo: Dictionary(
        uniqueKeysWithValues: axes.map { ($0, AbsInfo(minimum: 0, maximum: $0 == ABS.mtSlot ? 1 : 1000)) }))
  }

  @Test("A panel with BTN_TOUCH and no INPUT_PROP_DIRECT replays, as udev takes it live")
  func withoutDirect() throws {
    let path = try recordingFile(device(keys: [BTN.touch], properties: []))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try runTouchctl(["replay", path])
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: "\n").count == 2)
    #expect(result.stdout.contains(#""phase":"began""#))
  }

  @Test("A touchpad recording is refused, naming the file and udev's reason")
  func touchpadRefused() throws {
    let path = try recordingFile(device(keys: [BTN.touch, BTN.toolFinger], properties: []))
    defer { try? FileManager.default.removeItem(atPath: path) }
    for arguments in [["replay", path], ["replay", path, "--scene", TestPaths.config("kiosk.yaml").path]] {
      let result = try runTouchctl(arguments)
      #expect(result.status == 1)
      #expect(result.stdout.isEmpty)
      #expect(
        result.stderr
          == "\(path): the recorded device \"Panel\" is not a touchscreen: by udev's input_id rule, a touchpad: "
          + "ABS_MT_POSITION_X/Y with BTN_TOOL_FINGER and no INPUT_PROP_DIRECT; touchd would not take it live either\n")
    }
  }
}
