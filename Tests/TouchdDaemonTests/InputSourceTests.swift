import Dispatch
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// The Dispatch read source that reads the devices' epoll set (issue #45), on a pipe: its handler
/// runs on the pipeline queue, serialized with the queue's other work, once per readiness it
/// drains and again while the fd stays readable, with the time it began; `stop()` ends it.
@Suite struct InputSourceTests {
  /// A non-blocking pipe.
  static func makePipe() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
    return (fds[0], fds[1])
  }

  static func drain(_ fd: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let n = read(fd, &buffer, buffer.count)
      guard n > 0 else { return bytes }
      bytes += buffer[0..<n]
    }
  }

  /// Stops `input` on `queue` and waits until libdispatch has let go of the fd (then it may close).
  static func stop(_ input: InputSource, on queue: DispatchQueue) {
    let stopped = DispatchSemaphore(value: 0)
    queue.sync { input.stop { stopped.signal() } }
    #expect(stopped.wait(timeout: .now() + 5) == .success)
  }

  static func wait(until condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(5)
    while !condition(), Date() < deadline { usleep(1000) }
  }

  @Test("the handler runs on the queue for each write, with a wake time taken before it ran, and not after stop()")
  func handlerRunsOnTheQueue() throws {
    let queue = DispatchQueue(label: "input source test")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 7)
    let fds = Self.makePipe()
    defer {
      close(fds.read)
      close(fds.write)
    }
    let seen = NIOLockedValueBox<[(bytes: [UInt8], onQueue: Bool, wakeBeforeRun: Bool)]>([])
    let input = InputSource(fileDescriptor: fds.read, queue: queue) { wake in
      let ran = MonotonicClock.microseconds()
      let bytes = Self.drain(fds.read)
      seen.withLockedValue { $0.append((bytes, DispatchQueue.getSpecific(key: key) == 7, wake <= ran)) }
    }
    input.start()
    for byte: UInt8 in [1, 2, 3] {
      var b = byte
      #expect(write(fds.write, &b, 1) == 1)
      Self.wait { seen.withLockedValue { $0.count } >= Int(byte) }
    }
    let calls = seen.withLockedValue { $0 }
    #expect(calls.map(\.bytes) == [[1], [2], [3]])
    #expect(calls.allSatisfy { $0.onQueue && $0.wakeBeforeRun })
    Self.stop(input, on: queue)
    var b: UInt8 = 4
    #expect(write(fds.write, &b, 1) == 1)
    usleep(100_000)
    queue.sync {}
    #expect(seen.withLockedValue { $0.count } == 3, "no call after stop()")
    #expect(Self.drain(fds.read) == [4], "the byte written after stop() is still unread")
  }

  @Test("input that arrives while the queue is busy is handled after the queue's work, not during it")
  func serializedWithTheQueue() throws {
    let queue = DispatchQueue(label: "input source busy test")
    let fds = Self.makePipe()
    defer {
      close(fds.read)
      close(fds.write)
    }
    let order = NIOLockedValueBox<[String]>([])
    let input = InputSource(fileDescriptor: fds.read, queue: queue) { _ in
      _ = Self.drain(fds.read)
      order.withLockedValue { $0.append("input") }
    }
    input.start()
    defer { Self.stop(input, on: queue) }
    let started = DispatchSemaphore(value: 0)
    queue.async {
      order.withLockedValue { $0.append("work begins") }
      started.signal()
      usleep(200_000)
      order.withLockedValue { $0.append("work ends") }
    }
    started.wait()
    var b: UInt8 = 1
    #expect(write(fds.write, &b, 1) == 1)
    Self.wait { order.withLockedValue { $0.count } >= 3 }
    #expect(order.withLockedValue { $0 } == ["work begins", "work ends", "input"])
  }

  @Test("level-triggered: while the fd stays readable the handler runs again, and stops once it is drained")
  func runsAgainWhileReadable() throws {
    // The daemon relies on this: a device the handler did not drain (a frame larger than a read)
    // is read on the next run, with no input of its own to wake it.
    let queue = DispatchQueue(label: "input source level test")
    let fds = Self.makePipe()
    defer {
      close(fds.read)
      close(fds.write)
    }
    let runs = NIOLockedValueBox<[[UInt8]]>([])
    let input = InputSource(fileDescriptor: fds.read, queue: queue) { _ in
      // One byte a run: the rest stays readable.
      var byte: UInt8 = 0
      let n = read(fds.read, &byte, 1)
      runs.withLockedValue { $0.append(n == 1 ? [byte] : []) }
    }
    input.start()
    defer { Self.stop(input, on: queue) }
    var bytes: [UInt8] = [5, 6, 7]
    #expect(write(fds.write, &bytes, 3) == 3)
    Self.wait { runs.withLockedValue { $0.count } >= 3 }
    usleep(100_000)
    queue.sync {}
    #expect(runs.withLockedValue { $0 } == [[5], [6], [7]], "one run per byte, none once drained")
  }
}
