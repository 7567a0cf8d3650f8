import ArgumentParser
import Dispatch
import Foundation
import TouchdDevices
import TouchdInput

/// `touchctl record [DEVICE] [-o FILE] [--duration S]`: an evemu recording of a live device.
struct RecordCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "record",
    abstract: "Record a live device's events in evemu format (as evemu-record writes them).",
    discussion: """
      Without DEVICE, records the only touchscreen. Event times are relative to the first event. \
      Stops on Ctrl-C (SIGINT), after --duration seconds, or when the device is unplugged; the file is \
      complete in every case. After a kernel buffer overflow the recording holds the SYN_DROPPED event \
      followed by the events libevdev synthesizes to resync, so a replay reaches the device's real state.
      """)

  @Argument(help: "The evdev node, e.g. /dev/input/event5 (default: the only touchscreen).")
  var device: String?

  @Option(name: [.customShort("o"), .customLong("output")], help: "The file to write (default: standard output).")
  var output: String?

  @Option(help: "Stop after this many seconds.")
  var duration: Double?

  func validate() throws {
    if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
  }

  func run() throws {
    do {
      try record()
    } catch let error as RecordFailure {
      FileHandle.standardError.write(Data("touchctl record: \(error.message)\n".utf8))
      throw ExitCode(1)
    }
  }

  private func record() throws {
    let path = try device ?? Self.onlyTouchscreen()
    let opened: EvdevDevice
    do {
      opened = try EvdevDevice(path: path)
    } catch {
      throw RecordFailure(message: "\(error)")
    }
    let sink: FileHandle
    if let output {
      guard FileManager.default.createFile(atPath: output, contents: nil),
        let handle = FileHandle(forWritingAtPath: output)
      else { throw RecordFailure(message: "cannot create \(output)") }
      sink = handle
    } else {
      sink = FileHandle.standardOutput
    }
    let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
    sink.write(Data(EvemuWriter.header(for: opened.description, kernel: kernel).utf8))
    FileHandle.standardError.write(Data("Recording \(path) (\"\(opened.name)\"); Ctrl-C to stop.\n".utf8))

    let recorder = Recorder(device: opened, sink: sink)
    let outcome = recorder.run(duration: duration)
    if output != nil { try? sink.close() }
    switch outcome {
    case .stopped: break
    case .removed: FileHandle.standardError.write(Data("\(path) was removed; recording ends.\n".utf8))
    case .failed(let error): throw RecordFailure(message: "\(error)")
    }
  }

  /// The only touchscreen's node, or a failure listing what was found.
  private static func onlyTouchscreen() throws -> String {
    let devices: [DiscoveredDevice]
    do {
      devices = try DeviceDiscovery.scan()
    } catch {
      throw RecordFailure(message: "\(error)")
    }
    let touchscreens = devices.filter(\.isTouchscreen)
    switch touchscreens.count {
    case 1:
      return touchscreens[0].path
    case 0:
      let hint = DeviceListing.hint(devices).map { "\n" + $0 } ?? ""
      throw RecordFailure(message: "no touchscreen found; name a device node (see `touchctl devices --all`)\(hint)")
    default:
      let list = touchscreens.map { "  \($0.path)  \"\($0.description?.name ?? "")\"" }.joined(separator: "\n")
      throw RecordFailure(message: "several touchscreens; name one of them:\n\(list)")
    }
  }
}

private struct RecordFailure: Error {
  var message: String
}

/// Copies a device's events into an evemu file on one serial queue, the way the daemon reads devices:
/// a `DispatchSourceRead` on the device's fd, a `DispatchSourceSignal` for SIGINT and a deadline.
///
/// Confined to `queue`: every mutable field is touched only by handlers running there, and `run`
/// only waits for them, which is why the `@unchecked Sendable` is sound.
private final class Recorder: @unchecked Sendable {
  enum Outcome {
    case stopped
    case removed
    case failed(DeviceError)
  }

  private let device: EvdevDevice
  private let sink: FileHandle
  private let queue = DispatchQueue(label: "touchctl.record")
  private let finished = DispatchSemaphore(value: 0)
  private var writer = EvemuWriter()
  private var firstEventTime: Timestamp?
  private var outcome: Outcome?
  private var sources: [any DispatchSourceProtocol] = []

  init(device: EvdevDevice, sink: FileHandle) {
    self.device = device
    self.sink = sink
  }

  /// Records until SIGINT, `duration` seconds, removal or an error; returns why it stopped.
  func run(duration: Double?) -> Outcome {
    signal(SIGINT, SIG_IGN)
    queue.async { self.start(duration: duration) }
    finished.wait()
    signal(SIGINT, SIG_DFL)
    return outcome ?? .stopped
  }

  private func start(duration: Double?) {
    let read = DispatchSource.makeReadSource(fileDescriptor: device.fileDescriptor, queue: queue)
    read.setEventHandler { self.drain() }
    // The fd may only be closed once its source is cancelled.
    read.setCancelHandler {
      self.device.close()
      self.finished.signal()
    }
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
    interrupt.setEventHandler { self.finish(.stopped) }
    sources = [read, interrupt]
    if let duration {
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.schedule(deadline: .now() + duration)
      timer.setEventHandler { self.finish(.stopped) }
      sources.append(timer)
    }
    sources.forEach { $0.resume() }
    // Events may already be queued in libevdev or the kernel before the source sees readiness.
    drain()
  }

  private func drain() {
    guard outcome == nil else { return }
    var text = ""
    let status: DeviceReadStatus
    do {
      status = try device.readEvents { event in
        let zero = firstEventTime ?? event.time
        firstEventTime = zero
        var relative = event
        relative.time = Timestamp(microseconds: event.time.microseconds - zero.microseconds)
        text += writer.line(for: relative)
      }
    } catch {
      sink.write(Data(text.utf8))
      finish(.failed(error))
      return
    }
    sink.write(Data(text.utf8))
    if status == .removed { finish(.removed) }
  }

  private func finish(_ result: Outcome) {
    guard outcome == nil else { return }
    // What the kernel already queued belongs to the recording (draining may itself end it).
    if case .stopped = result { drain() }
    guard outcome == nil else { return }
    outcome = result
    sources.forEach { $0.cancel() }
    sources = []
  }
}
