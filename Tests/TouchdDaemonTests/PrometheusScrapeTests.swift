import Foundation
import Testing
import TouchdTestKit

@testable import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// The metrics as a fleet reads them (issue #42): touchd's HTTP endpoint and node_exporter's
/// textfile collector, each scraped by a real Prometheus (Debian's `prometheus` and
/// `prometheus-node-exporter`, which scripts/setup.sh installs) started on loopback by the test;
/// after a replayed recording, Prometheus' query API returns the recording's counts from both.
@Suite(.serialized)
struct PrometheusScrapeTests {
  /// Three taps on the ticket button and one on the map.
  private func replayed(_ directory: URL, options: [String]) throws -> DaemonProcess {
    let script = Kiosk.script()
    for point in [Kiosk.buyTicket, Kiosk.buyTicket, Kiosk.buyTicket, Kiosk.showMap] {
      script.tap(at: point)
      script.wait(0.6)
    }
    return try DaemonProcess.replaying(script, in: directory, delay: 0.2, options: options)
  }

  /// The address the daemon logged for its metrics endpoint (`--metrics-address 127.0.0.1:0`).
  private func metricsPort(_ daemon: DaemonProcess) throws -> Int {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
      if let line = daemon.log.split(separator: "\n").first(where: { $0.contains("metrics endpoint listening") }),
        let port = line.split(separator: ":").last.flatMap({ Int($0.prefix { $0.isNumber }) })
      {
        return port
      }
      usleep(20_000)
    }
    throw DaemonTestError("no 'metrics endpoint listening' in the log: \(daemon.log)")
  }

  @Test func theEndpointAnswersGetMetricsAndNothingElse() throws {
    let daemon = try replayed(scratchDirectory(), options: ["--metrics-address", "127.0.0.1:0"])
    let port = try metricsPort(daemon)
    let ok = try HTTP.get("127.0.0.1", port, "/metrics")
    #expect(ok.status == 200)
    #expect(ok.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
    #expect(ok.body.contains("# TYPE touchd_frames_total counter\n"))
    #expect(try HTTP.get("127.0.0.1", port, "/").status == 404)
    #expect(try HTTP.get("127.0.0.1", port, "/metrics", method: "POST").status == 405)
    // Not on another address: refused at start, saying why.
    let refused = try runProcess(
      try TestPaths.builtProduct("touchd"),
      [
        "--scene", kioskScenePath, "--socket", scratchDirectory("refused").appendingPathComponent("t.sock").path,
        "--metrics-address", "0.0.0.0:0",
      ])
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("is not a loopback address"), "\(refused.stderr)")
  }

  @Test func prometheusScrapesTouchdAndNodeExportersTextfileAndGetsTheRecordingsCounts() throws {
    let directory = scratchDirectory()
    let daemon = try replayed(directory, options: ["--metrics-address", "127.0.0.1:0"])
    let port = try metricsPort(daemon)
    // The replay's last action, then the textfile for node_exporter.
    let (client, _) = try daemon.connect()
    client.send(#"{"cmd":"subscribe","id":"s"}"#)
    var actions = 0
    let end = Date().addingTimeInterval(20)
    while actions < 4, Date() < end {
      if client.readLine(timeout: 1)?.contains(#""type":"action""#) == true { actions += 1 }
    }
    #expect(actions == 4)
    let textfiles = directory.appendingPathComponent("textfile")
    try FileManager.default.createDirectory(at: textfiles, withIntermediateDirectories: true)
    let written = try runTouchctl(
      ["metrics", "--socket", daemon.socket, "--textfile", textfiles.appendingPathComponent("touchd.prom").path])
    #expect(written.status == 0, "\(written.stderr)")

    let nodePort = try HTTP.freePort()
    let node = try Background(
      "/usr/bin/prometheus-node-exporter",
      [
        "--web.listen-address=127.0.0.1:\(nodePort)", "--collector.disable-defaults", "--collector.textfile",
        "--collector.textfile.directory=\(textfiles.path)",
      ],
      log: directory.appendingPathComponent("node-exporter.log"))
    defer { node.stop() }
    let prometheusPort = try HTTP.freePort()
    let config = directory.appendingPathComponent("prometheus.yml")
    try """
    global:
      scrape_interval: 1s
    scrape_configs:
      - job_name: touchd
        static_configs: [{targets: ['127.0.0.1:\(port)']}]
      - job_name: node
        static_configs: [{targets: ['127.0.0.1:\(nodePort)']}]
    """.write(to: config, atomically: true, encoding: .utf8)
    let prometheus = try Background(
      "/usr/bin/prometheus",
      [
        "--config.file=\(config.path)", "--storage.tsdb.path=\(directory.appendingPathComponent("tsdb").path)",
        "--web.listen-address=127.0.0.1:\(prometheusPort)",
      ],
      log: directory.appendingPathComponent("prometheus.log"))
    defer { prometheus.stop() }

    /// The value of `query` in Prometheus once it has one (nil after 30 s).
    func value(_ query: String) -> Double? {
      let deadline = Date().addingTimeInterval(30)
      let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
      while Date() < deadline {
        if let reply = try? HTTP.get("127.0.0.1", prometheusPort, "/api/v1/query?query=\(encoded)"),
          reply.status == 200,
          let object = try? JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any],
          let data = object["data"] as? [String: Any], let result = data["result"] as? [[String: Any]],
          let sample = result.first?["value"] as? [Any], let text = sample.last as? String
        {
          return Double(text)
        }
        usleep(250_000)
      }
      return nil
    }
    for job in ["touchd", "node"] {
      #expect(
        value(#"touchd_actions_total{job="\#(job)",action="buy-ticket",gesture="tap"}"#) == 3,
        "\(job): \(prometheus.log)")
      #expect(value(#"touchd_actions_total{job="\#(job)",action="show-map",gesture="tap"}"#) == 1, "\(job)")
      #expect(value(#"touchd_touches_began_total{job="\#(job)"}"#) == 4, "\(job)")
      #expect(value(#"touchd_frames_total{job="\#(job)"}"#) == 8, "\(job)")
    }
    #expect(value(#"up{job="touchd"}"#) == 1)
  }
}

/// touchd-metrics.socket's way (issue #42): systemd passes a loopback TCP socket named `metrics`
/// (`FileDescriptorName=metrics`), touchd serves its metrics there and does not take it for the
/// WebSocket endpoint. A python3 launcher does what systemd does (sd_listen_fds(3)): it listens,
/// puts the socket at fd 3, sets LISTEN_FDS, LISTEN_FDNAMES and LISTEN_PID to its own pid, and
/// execs touchd, which keeps that pid. (systemd-socket-activate forks touchd off instead, leaving
/// an orphan the test cannot stop.)
@Suite(.serialized)
struct MetricsSocketActivationTests {
  static let launcher = """
    import os, socket, sys
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", int(sys.argv[1])))
    s.listen(16)
    os.dup2(s.fileno(), 3)
    os.set_inheritable(3, True)
    os.environ.update(LISTEN_FDS="1", LISTEN_FDNAMES=sys.argv[2], LISTEN_PID=str(os.getpid()))
    os.execv(sys.argv[3], sys.argv[3:])
    """

  @Test func aSocketNamedMetricsServesTheMetricsAndIsNotTheWebSocket() throws {
    let directory = scratchDirectory()
    let socket = directory.appendingPathComponent("touchd.sock").path
    let port = try HTTP.freePort()
    let touchd = try Background(
      "/usr/bin/python3",
      [
        "-c", Self.launcher, "\(port)", SystemdNotifier.metricsSocketName, try TestPaths.builtProduct("touchd").path,
        "--scene", kioskScenePath, "--socket", socket,
      ], log: directory.appendingPathComponent("touchd.log"))
    defer { touchd.stop() }
    var response: HTTP.Response?
    let deadline = Date().addingTimeInterval(10)
    while response == nil, Date() < deadline {
      response = try? HTTP.get("127.0.0.1", port, "/metrics")
      if response == nil { usleep(50_000) }
    }
    let metrics = try #require(response, "\(touchd.log)")
    #expect(metrics.status == 200)
    #expect(metrics.body.contains("# TYPE touchd_frames_total counter\n"), "\(metrics.body.prefix(200))")
    #expect(touchd.log.contains("using the metrics socket passed by systemd"), "\(touchd.log)")
    // The metrics socket is not taken for the WebSocket endpoint.
    let client = try LineClient(path: socket)
    let status = try #require(client.command(#"{"cmd":"status","id":1}"#, id: 1).reply, "\(touchd.log)")
    #expect(status["webSocket"] is NSNull, "\(status)")
  }
}

/// A program run in the background for a test, its output to a log file, stopped with SIGTERM.
private final class Background {
  let process = Process()
  let logURL: URL

  init(_ path: String, _ arguments: [String], log: URL) throws {
    logURL = log
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let handle = try FileHandle(forWritingTo: log)
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
  }

  var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

  func stop() {
    process.terminate()
    process.waitUntilExit()
  }
}

/// A minimal HTTP/1.0 client over a TCP socket, for the tests' loopback servers.
enum HTTP {
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: String
  }

  /// A port nobody listens on now (bound and released; a test's server takes it right away).
  static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
      }
    }
    guard bound else { throw DaemonTestError("cannot find a free port: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  static func get(_ host: String, _ port: Int, _ path: String, method: String = "GET") throws -> Response {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr(host)
    address.sin_port = UInt16(port).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard connected else { throw DaemonTestError("connect \(host):\(port): errno \(errno)") }
    let request = Array("\(method) \(path) HTTP/1.0\r\nHost: \(host)\r\nContent-Length: 0\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(fd, &chunk, chunk.count)
      guard n > 0 else { break }
      received += chunk[..<n]
    }
    let text = String(decoding: received, as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else { throw DaemonTestError("not HTTP: \(text)") }
    let lines = text[..<split.lowerBound].split(separator: "\r\n")
    let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Response(status: status, headers: headers, body: String(text[split.upperBound...]))
  }
}
