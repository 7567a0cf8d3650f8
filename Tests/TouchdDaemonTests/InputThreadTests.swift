import Dispatch
import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// The thread that waits on the devices' epoll set (issue #21), on a pipe: its handler runs on the
/// pipeline queue, serialized with the queue's other work, once per readiness it drains, with the
/// time it woke; `stop()` ends it.
@Suite struct InputThreadTests {
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

  @Test("the handler runs on the queue for each write, with a wake time before it ran, and not after stop()")
  func handlerRunsOnTheQueue() throws {
    let queue = DispatchQueue(label: "input thread test")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 7)
    let fds = Self.makePipe()
    defer {
      close(fds.read)
      close(fds.write)
    }
    let seen = NIOLockedValueBox<[(bytes: [UInt8], onQueue: Bool, wakeBeforeRun: Bool)]>([])
    let thread = InputThread(fileDescriptor: fds.read, queue: queue, name: "test.input") { wake in
      let ran = MonotonicClock.microseconds()
      let bytes = Self.drain(fds.read)
      seen.withLockedValue { $0.append((bytes, DispatchQueue.getSpecific(key: key) == 7, wake <= ran)) }
    }
    thread.start()
    for byte: UInt8 in [1, 2, 3] {
      var b = byte
      #expect(write(fds.write, &b, 1) == 1)
      let deadline = Date().addingTimeInterval(5)
      while seen.withLockedValue({ $0.count }) < Int(byte), Date() < deadline { usleep(1000) }
    }
    let calls = seen.withLockedValue { $0 }
    #expect(calls.map(\.bytes) == [[1], [2], [3]])
    #expect(calls.allSatisfy { $0.onQueue && $0.wakeBeforeRun })
    thread.stop()
    usleep(50_000)
    var b: UInt8 = 4
    #expect(write(fds.write, &b, 1) == 1)
    usleep(100_000)
    #expect(seen.withLockedValue { $0.count } == 3, "no call after stop()")
    #expect(Self.drain(fds.read) == [4], "the byte written after stop() is still unread")
  }

  @Test("input that arrives while the queue is busy is handled after the queue's work, not during it")
  func serializedWithTheQueue() throws {
    let queue = DispatchQueue(label: "input thread busy test")
    let fds = Self.makePipe()
    defer {
      close(fds.read)
      close(fds.write)
    }
    let order = NIOLockedValueBox<[String]>([])
    let thread = InputThread(fileDescriptor: fds.read, queue: queue, name: "test.input") { _ in
      _ = Self.drain(fds.read)
      order.withLockedValue { $0.append("input") }
    }
    thread.start()
    defer { thread.stop() }
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
    let deadline = Date().addingTimeInterval(5)
    while order.withLockedValue({ $0.count }) < 3, Date() < deadline { usleep(1000) }
    #expect(order.withLockedValue { $0 } == ["work begins", "work ends", "input"])
  }
}
