import BenchSupport
import Benchmark
import Foundation
import Logging
import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// Refuses every pipeline command: the fan-out benchmark sends none.
final class NoCommands: CommandHandler, Sendable {
  func handle(
    _ command: ClientCommand, from client: ClientInfo, server: ServerCounters,
    reply: @escaping @Sendable (CommandResult) -> Void
  ) { reply(.error("not in the benchmark")) }
}

/// The server, 64 subscribers that read, and one stalled subscriber that never reads.
final class FanOut {
  let path = "/tmp/touchd-bench-\(getpid()).sock"
  let server: SocketServer
  let readers: [Client]
  let stalled: Client
  let message: OutboundMessage
  var seq = 0

  init(subscribers: Int) throws {
    var logger = Logger(label: "bench")
    logger.logLevel = .critical
    var configuration = SocketServer.Configuration(path: path)
    // The 65 clients stand for 65 apps, but the benchmark runs them as one user: the per-user
    // limit (16 by default) would refuse all but 16 of them.
    configuration.maximumClientsPerUser = subscribers + 1
    server = try SocketServer(configuration: configuration, handler: NoCommands(), logger: logger)
    server.setHello(#"{"type":"hello","version":1,"windows":[{"id":"main","width":1920,"height":1080}],"views":200}"#)
    readers = (0..<subscribers).map { _ in Client(path: "/tmp/touchd-bench-\(getpid()).sock") }
    // Each subscribes, as an app does (a client that sends no line is closed after the first-line
    // timeout): its hello, then the reply.
    for reader in readers {
      reader.readLine()
      reader.send(#"{"cmd":"subscribe","id":1}"#)
      reader.readLine()
    }
    stalled = Client(path: path)
    // Skips instead of being disconnected once its buffer is full, so it stays for every run.
    stalled.send(#"{"cmd":"subscribe","id":1,"overflow":"skip"}"#)
    message = OutboundMessage(
      line:
        #"{"type":"action","seq":17,"action":"move3","gesture":"pan","state":"changed","view":"tile3","window":"main","recognizer":"pan3","time":1234.567891,"location":{"x":1344.5,"y":135.25},"numberOfTouches":1,"translation":{"x":12.5,"y":-3.25},"velocity":{"x":250,"y":-65}}"#,
      type: "action", action: "move3", view: "tile3")
    // Let the stalled client's subscription apply before the first publish.
    while server.counters().clients < subscribers + 1 { usleep(1000) }
    usleep(50_000)
  }

  /// Publishes one action and returns when every reading subscriber has read it.
  func publishAndWait() {
    server.publish(message)
    for reader in readers { reader.readLine() }
  }

  func stop() {
    server.shutdown(notice: nil, timeout: .milliseconds(100))
  }
}

let benchmarks: @Sendable () -> Void = {
  Benchmark(
    "Fan-out one action to 64 subscribers (+1 stalled)",
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .syscalls, .contextSwitches],
      warmupIterations: BenchMode.warmup(50),
      maxDuration: BenchMode.duration(5), maxIterations: BenchMode.iterations(5_000))
  ) { (benchmark: Benchmark, fanOut: FanOut) in
    for _ in benchmark.scaledIterations { fanOut.publishAndWait() }
  } setup: {
    try FanOut(subscribers: 64)
  }
  metricsPerFrameBenchmark()
}
