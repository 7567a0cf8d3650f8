import ArgumentParser
import Foundation
import TouchdDevices

/// `touchctl devices [--all] [--json]`: the touchscreens udev knows, read through libevdev.
struct DevicesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "devices",
    abstract: "List touchscreens: node, name, ids, bus, protocol, axes, slots and calibration.",
    discussion: """
      Every /dev/input/event* node udev lists is opened read-only (not grabbed) to read its \
      capabilities. Reading input devices needs root or membership in the `input` group.
      """)

  @Flag(help: "Also list input devices that are not touchscreens, with the reason.")
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
