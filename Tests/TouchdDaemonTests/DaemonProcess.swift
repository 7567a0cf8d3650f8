import Foundation
import TouchdTestKit

#if canImport(Glibc)
  import Glibc
#endif

/// The built `touchd`/`touchctl` binary's path (``TestPaths/builtProduct(_:)``: throws when it is
/// not built).
func builtProduct(_ name: String) throws -> String { try TestPaths.builtProduct(name).path }

/// A scratch directory for one test.
func scratchDirectory(_ name: String = #function) -> URL {
  let clean = name.filter { $0.isLetter || $0.isNumber }.prefix(40)
  let url = URL(fileURLWithPath: "/tmp/touchd-it-\(getpid())-\(clean)")
  try? FileManager.default.removeItem(at: url)
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// The kiosk example scene's text, and its path in the repository.
let kioskScenePath: String = {
  TestPaths.config("kiosk.yaml").path
}()

/// Centres of the kiosk scene's views, in window points.
enum Kiosk {
  static let buyTicket = FingerScript.Point(x: 400, y: 480)
  static let showMap = FingerScript.Point(x: 960, y: 480)
  static let help = FingerScript.Point(x: 1520, y: 480)
  static let signature = FingerScript.Point(x: 960, y: 890)

  /// A script on the kiosk's 1920x1080 window starting at t = 100 s.
  static func script(sampleRate: Double = 120) -> FingerScript {
    FingerScript(windowWidth: 1920, windowHeight: 1080, start: 100, sampleRate: sampleRate)
  }
}

/// A running `touchd`, stopped (SIGKILL) when released if still running.
final class DaemonProcess: @unchecked Sendable {
  let process = Process()
  let socket: String
  let logURL: URL

  /// Starts `touchd --scene SCENE --socket SOCKET ARGS` and waits until the socket exists.
  init(scene: String, directory: URL, arguments: [String]) throws {
    let binary = try builtProduct("touchd")
    socket = directory.appendingPathComponent("touchd.sock").path
    logURL = directory.appendingPathComponent("touchd.log")
    _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["--scene", scene, "--socket", socket] + arguments
    process.standardError = try FileHandle(forWritingTo: logURL)
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    // The socket file exists from bind(); connections succeed from listen(): wait for the latter.
    while (try? LineClient(path: socket)) == nil {
      guard process.isRunning, Date() < deadline else {
        throw DaemonTestError("touchd did not listen on its socket; log:\n\(log)")
      }
      usleep(10_000)
    }
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

  func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

  /// Waits for the process to exit; nil if it is still running after `timeout` seconds.
  func waitForExit(timeout: Double = 10) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
      if Date() > deadline { return nil }
      usleep(10_000)
    }
    return process.terminationStatus
  }

  /// A connected client that has read the hello line.
  func connect() throws -> (LineClient, [String: Any]) {
    let client = try LineClient(path: socket)
    guard let hello = json(client.readLine(timeout: 10)) else { throw DaemonTestError("no hello") }
    return (client, hello)
  }
}

struct DaemonTestError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Writes a script's evemu recording to `directory`.
func writeRecording(_ script: FingerScript, to directory: URL, name: String = "input.evemu") throws -> String {
  let url = directory.appendingPathComponent(name)
  try script.evemuText.write(to: url, atomically: true, encoding: .utf8)
  return url.path
}

extension LineClient {
  /// Subscribes and waits until `count` action messages are out (a replay's frames delivered),
  /// then a little more for the frame after the last; false when they do not come within 20 s.
  func waitForActions(_ count: Int) -> Bool {
    send(#"{"cmd":"subscribe","id":"s"}"#)
    var actions = 0
    let deadline = Date().addingTimeInterval(20)
    while actions < count, Date() < deadline {
      if let line = readLine(timeout: 1), line.contains(#""type":"action""#) { actions += 1 }
    }
    usleep(300_000)
    return actions == count
  }

  /// Sends a command and returns its reply (skipping published messages, which are returned too).
  func command(_ line: String, id: Int, timeout: Double = 10) -> (reply: [String: Any]?, others: [String]) {
    send(line)
    var others: [String] = []
    while let text = readLine(timeout: timeout) {
      if let object = json(text), object["id"] as? Int == id,
        ["reply", "error"].contains(object["type"] as? String)
      {
        return (object, others)
      }
      others.append(text)
    }
    return (nil, others)
  }

  /// Reads messages until one with `type` arrives (or the stream ends / times out).
  func collect(until type: String, timeout: Double = 15) -> [[String: Any]] {
    var out: [[String: Any]] = []
    while let line = readLine(timeout: timeout), let object = json(line) {
      out.append(object)
      if object["type"] as? String == type { break }
    }
    return out
  }
}

extension DaemonProcess {
  /// Writes `script`'s recording into `directory` and starts touchd replaying it against `scene`
  /// after `delay` seconds (so clients can connect first), with `options` added.
  static func replaying(
    _ script: FingerScript, scene: String = kioskScenePath, in directory: URL, delay: Double,
    options: [String] = ["--exit-after-replay"]
  ) throws -> DaemonProcess {
    let recording = try writeRecording(script, to: directory)
    return try DaemonProcess(
      scene: scene, directory: directory, arguments: ["--replay", recording, "--replay-delay", "\(delay)"] + options)
  }
}
