import Foundation
import TouchdTestKit

#if canImport(Glibc)
  import Glibc
#endif

/// A running `touchd --scene SCENE --socket DIR/touchd.sock --replay DIR/input.evemu ARGS` in a
/// scratch directory, killed when released if still running.
final class Touchd {
  let process = Process()
  let directory: URL
  let socket: String
  let recording: String
  let scene: String

  init(
    scene: String = TestPaths.config("kiosk.yaml").path, replaying script: FingerScript, arguments: [String],
    name: String = #function
  ) throws {
    directory = URL(fileURLWithPath: "/tmp/touchctl-it-\(getpid())-\(name.filter { $0.isLetter }.prefix(40))")
    try? FileManager.default.removeItem(at: directory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    self.scene = scene
    socket = directory.appendingPathComponent("touchd.sock").path
    recording = directory.appendingPathComponent("input.evemu").path
    try script.evemuText.write(toFile: recording, atomically: true, encoding: .utf8)
    let log = directory.appendingPathComponent("touchd.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.executableURL = try TestPaths.builtProduct("touchd")
    process.arguments = ["--scene", scene, "--socket", socket, "--replay", recording] + arguments
    process.standardError = try FileHandle(forWritingTo: log)
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // It logs "touchd ready" once it listens: waiting so, no client connects before the test's.
    let deadline = Date().addingTimeInterval(20)
    while !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("touchd ready") {
      guard process.isRunning, Date() < deadline else {
        throw SupportError("touchd did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
      }
      usleep(20_000)
    }
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }
}

struct SupportError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A one-shot stand-in for touchd on `path`: greets the first client with `hello`, reads one line
/// and answers it with `reply(line)`; ``line`` is what the client sent, once it has.
final class RecordingServer: @unchecked Sendable {
  private let fd: Int32
  private let done = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var received: String?

  init(path: String, reply: @escaping @Sendable (String) -> String) throws {
    unlink(path)
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard fd >= 0, bound == 0, listen(fd, 1) == 0 else { throw SupportError("cannot listen on \(path)") }
    let listener = fd
    Thread.detachNewThread { [self] in
      defer { done.signal() }
      let client = accept(listener, nil, nil)
      guard client >= 0 else { return }
      defer { close(client) }
      Self.write(client, #"{"type":"hello","version":1,"windows":[],"views":0}"#)
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while !bytes.contains(UInt8(ascii: "\n")) {
        let n = read(client, &chunk, chunk.count)
        guard n > 0 else { return }
        bytes += chunk[..<n]
      }
      let line = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
      lock.withLock { received = line }
      Self.write(client, reply(line))
    }
  }

  deinit { close(fd) }

  private static func write(_ fd: Int32, _ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
  }

  /// The line the client sent (waiting up to 10 s for it to be answered).
  var line: String? {
    _ = done.wait(timeout: .now() + 10)
    return lock.withLock { received }
  }
}

/// `text` with touchctl's request id (`"touchctl-PID"`) replaced by `#`.
func pidless(_ text: String) -> String {
  text.replacingOccurrences(of: #""touchctl-[0-9]+""#, with: "#", options: .regularExpression)
}
