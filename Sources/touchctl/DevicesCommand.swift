import ArgumentParser
import Foundation
import TouchdDevices

/// `touchctl devices [--all] [--json]`: the touchscreens udev knows, read through libevdev.
struct DevicesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "devices",
    abstract: "List input devices: the touchscreens touchd takes, and why it leaves the others.",
    discussion: """
      Every /dev/input/event* node udev lists is opened read-only (not grabbed) to read its \
      capabilities. Touchscreens touchd takes are listed with their ids, bus, protocol, axes, slots \
      and calibration; every other device with udev's classification, touchd's decision and its \
      reason, and, for one that looks like a touch device, the udev rule that would change it. \
      touchd takes what udev tags ID_INPUT_TOUCHSCREEN=1 unless TOUCHD_IGNORE=1 is set; without a \
      udev record it applies udev's own input_id rule. Reading input devices needs root or \
      membership in the `input` group.
      """)

  @Flag(help: "Text: show the axes of devices not taken too. JSON: list every input device, not only touchscreens.")
  var all = false

  @Flag(help: "Print a JSON array instead of text.")
  var json = false

  func run() throws {
    let devices: [DiscoveredDevice]
    do {
      devices = try DeviceDiscovery.scan()
    } catch {
      FileHandle.standardError.write(Data("touchctl: \(error)\n".utf8))
      throw ExitCode(1)
    }
    if json {
      FileHandle.standardOutput.write(Data(try DeviceListing.json(devices, all: all).utf8))
      if let hint = DeviceListing.hint(devices) { FileHandle.standardError.write(Data("\(hint)\n".utf8)) }
    } else {
      FileHandle.standardOutput.write(Data(DeviceListing.text(devices, all: all).utf8))
    }
  }
}
