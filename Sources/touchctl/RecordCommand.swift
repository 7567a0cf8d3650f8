import ArgumentParser
import Dispatch
import Foundation
import TouchdDevices
import TouchdInput
import TouchdSystem

/// `touchctl record [DEVICE...] [-o FILE] [--duration S]`: an evemu recording of a live device, or a
/// `libinput record` file of several devices recorded together.
struct RecordCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "record",
    abstract: "Record live devices' events: evemu for one device, libinput record for several.",
    discussion: """
      Without DEVICE, records the only touchscreen. With one DEVICE, writes evemu as evemu-record does, \
      event times relative to the first event. With several (a touchscreen and a kiosk keypad), writes \
      one libinput record file (libinput-record(1), as `libinput record DEV1 DEV2` writes it) holding \
      every device, their event times on one clock counted from the start of the recording, so \
      `touchctl replay` and `touchd --replay` merge the devices as they happened. \
      Stops on Ctrl-C (SIGINT), after --duration seconds, or when a device is unplugged; the file is \
      complete in every case. After a kernel buffer overflow the recording holds the SYN_DROPPED event \
      followed by the events libevdev synthesizes to resync, so a replay reaches the device's real state. \
      Key codes are written as they are: unlike libinput record, nothing is obfuscated, so do not \
      record a keyboard someone types a password on.
      """)

  @Argument(help: "The evdev nodes, e.g. /dev/input/event5 (default: the only touchscreen).")
  var devices: [String] = []

  @Option(name: [.customShort("o"), .customLong("output")], help: "The file to write (default: standard output).")
  var output: String?

  @Option(help: "Stop after this many seconds.")
  var duration: Double?

  func validate() throws {
    if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
    if let twice = devices.first(where: { path in devices.filter { $0 == path }.count > 1 }) {
      throw ValidationError("\(twice) is given twice")
    }
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
    let paths = devices.isEmpty ? [try Self.onlyTouchscreen()] : devices
    var opened: [EvdevDevice] = []
    for path in paths {
      do {
        opened.append(try EvdevDevice(path: path))
      } catch {
        opened.forEach { $0.close() }
        throw RecordFailure(message: "\(error)")
      }
    }
    let sink: FileHandle
    if let output {
      guard FileManager.default.createFile(atPath: output, contents: nil),
        let handle = FileHandle(forWritingAtPath: output)
      else {
        opened.forEach { $0.close() }
        throw RecordFailure(message: "cannot create \(output)")
      }
      sink = handle
    } else {
      sink = FileHandle.standardOutput
    }
    let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let names = opened.map { "\($0.path) (\"\($0.name)\")" }.joined(separator: ", ")
    FileHandle.standardError.write(Data("Recording \(names); Ctrl-C to stop.\n".utf8))

    let format: Recorder.Format = opened.count == 1 ? .evemu : .libinputRecord
    let recorder = Recorder(devices: opened, format: format, sink: sink, kernel: kernel)
    let outcome = recorder.run(duration: duration)
    if output != nil { try? sink.close() }
    switch outcome {
    case .stopped: break
    case .removed(let path): FileHandle.standardError.write(Data("\(path) was removed; recording ends.\n".utf8))
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

/// Copies devices' events into a recording on one serial queue, the way the daemon reads devices:
/// the devices in a `DevicePoll` under one `DispatchSourceRead`, a `DispatchSourceSignal` for SIGINT
/// and a deadline.
///
/// One device is written as evemu, streamed. Several are written as libinput record does: the
/// first device's events streamed, the others' kept and appended when the recording stops, every
/// time counted from the start of the recording (or from an event already queued then, if earlier).
///
/// Confined to `queue`: every mutable field is touched only by handlers running there, and `run`
/// only waits for them, which is why the `@unchecked Sendable` is sound.
private final class Recorder: @unchecked Sendable {
  enum Format {
    case evemu
    case libinputRecord
  }

  enum Outcome {
    case stopped
    /// The device at this path was unplugged.
    case removed(String)
    case failed(DeviceError)
  }

  private let devices: [EvdevDevice]
  private let format: Format
  private let sink: FileHandle
  private let kernel: String?
  private let queue = DispatchQueue(label: "touchctl.record")
  private let finished = DispatchSemaphore(value: 0)
  private var evemu = EvemuWriter()
  /// The libinput record file being written, from the start of the recording.
  private var stream: LibinputRecordWriter.Stream?
  /// The time recorded as 0 in the evemu file: its first event's.
  private var zero: Timestamp?
  private var outcome: Outcome?
  private var sources: [any DispatchSourceProtocol] = []
  /// The devices' fds; their tokens, in `devices`' order.
  private var poll: DevicePoll?
  private var tokens: [UInt64] = []

  init(devices: [EvdevDevice], format: Format, sink: FileHandle, kernel: String?) {
    self.devices = devices
    self.format = format
    self.sink = sink
    self.kernel = kernel
  }

  /// Records until SIGINT, `duration` seconds, removal or an error; returns why it stopped.
  func run(duration: Double?) -> Outcome {
    SystemCalls.live.ignoreSignal(SIGINT)
    queue.async { self.start(duration: duration) }
    finished.wait()
    SystemCalls.live.ignoreSignal(SIGINT, false)
    return outcome ?? .stopped
  }

  private func start(duration: Double?) {
    do {
      let poll = try DevicePoll()
      for device in devices { tokens.append(try poll.add(device.fileDescriptor, path: device.path)) }
      let read = DispatchSource.makeReadSource(fileDescriptor: poll.fileDescriptor, queue: queue)
      read.setEventHandler {
        for token in poll.ready() {
          if let index = self.tokens.firstIndex(of: token) { self.drain(self.devices[index]) }
        }
      }
      sources.append(read)
      self.poll = poll
    } catch {
      finish(.failed(error))
      return
    }
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
    interrupt.setEventHandler { self.finish(.stopped) }
    sources.append(interrupt)
    if let duration {
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.schedule(deadline: .now() + duration)
      timer.setEventHandler { self.finish(.stopped) }
      sources.append(timer)
    }
    sources.forEach { $0.resume() }
    // Events may already be queued in libevdev or the kernel before the sources see readiness; the
    // handlers run on this queue, so none runs before this function returns.
    switch format {
    case .evemu:
      sink.write(Data(EvemuWriter.header(for: devices[0].description, kernel: kernel).utf8))
      drain(devices[0])
    case .libinputRecord:
      // Events already queued count too: the clock starts at the earliest of them, or now.
      let start = Timestamp(microseconds: SystemCalls.live.monotonicMicroseconds())
      let queued = devices.map(read)
      let zero = ([start] + queued.compactMap(\.events.first?.time)).min() ?? start
      let stream = LibinputRecordWriter.Stream(
        devices: devices.map { ($0.description, $0.path) }, zero: zero, kernel: kernel)
      sink.write(Data(stream.start().utf8))
      self.stream = stream
      for (index, read) in queued.enumerated() { record(read.events, from: index) }
      if let end = queued.lazy.compactMap(\.end).first { finish(end) }
    }
  }

  /// What `device` has pending, and why the recording ends when it does (removed, failed).
  private func read(_ device: EvdevDevice) -> (events: [InputEvent], end: Outcome?) {
    var events: [InputEvent] = []
    do {
      let status = try device.readEvents { events.append($0) }
      return (events, status == .removed ? .removed(device.path) : nil)
    } catch {
      return (events, .failed(error))
    }
  }

  private func drain(_ device: EvdevDevice) {
    guard outcome == nil else { return }
    let (events, end) = read(device)
    record(events, from: devices.firstIndex { $0 === device } ?? 0)
    if let end { finish(end) }
  }

  /// Writes (evemu, or the first device of libinput record) or keeps (the other devices) events.
  private func record(_ events: [InputEvent], from index: Int) {
    guard !events.isEmpty else { return }
    var text = ""
    switch format {
    case .evemu:
      for event in events {
        let zero = self.zero ?? event.time
        self.zero = zero
        var relative = event
        relative.time = Timestamp(microseconds: event.time.microseconds - zero.microseconds)
        text += evemu.line(for: relative)
      }
    case .libinputRecord:
      text = stream?.record(events, device: index) ?? ""
    }
    if !text.isEmpty { sink.write(Data(text.utf8)) }
  }

  /// Stops: what the kernel already queued belongs to the recording, then the kept devices are
  /// written, then the sources are cancelled and the devices closed (out of the poll set first).
  private func finish(_ result: Outcome) {
    guard outcome == nil else { return }
    outcome = result
    if case .stopped = result {
      for (index, device) in devices.enumerated() { record(read(device).events, from: index) }
    }
    if let text = stream?.finish(), !text.isEmpty { sink.write(Data(text.utf8)) }
    sources.forEach { $0.cancel() }
    sources = []
    for (index, device) in devices.enumerated() {
      if index < tokens.count { poll?.remove(tokens[index]) }
      device.close()
    }
    finished.signal()
  }
}
