import Dispatch
import Glibc
import Testing
import TouchdSystem

@testable import TouchdDevices

/// The devices' epoll set, on pipes: what it reports ready, after a hang-up, after removal, and
/// that its one fd wakes a `DispatchSourceRead` (how the daemon reads every device).
@Suite struct DevicePollTests {
  /// A pipe: (read end, write end).
  func pipePair() -> (Int32, Int32) {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    return (fds[0], fds[1])
  }

  @Test func reportsAnFdWithInputUntilItIsDrainedOrRemoved() throws {
    let poll = try DevicePoll()
    let (a, aw) = pipePair()
    let (b, bw) = pipePair()
    defer { [a, aw, b, bw].forEach { _ = close($0) } }
    let ta = try poll.add(a, path: "/dev/input/event1")
    let tb = try poll.add(b, path: "/dev/input/event2")
    #expect(ta != tb)
    #expect(poll.ready().isEmpty)
    #expect(write(bw, "x", 1) == 1)
    #expect(poll.ready() == [tb])
    // Level-triggered: still ready until read.
    #expect(poll.ready() == [tb])
    var byte: UInt8 = 0
    #expect(read(b, &byte, 1) == 1)
    #expect(poll.ready().isEmpty)
    #expect(write(aw, "y", 1) == 1)
    poll.remove(ta)
    #expect(poll.ready().isEmpty, "a removed fd is never reported, even with input")
    #expect(poll.count == 1)
    poll.remove(ta)  // twice: ignored
    #expect(poll.count == 1)
  }

  @Test("A hang-up (an unplugged node's state) is reported, so the read sees the error and removes it")
  func reportsAHangUp() throws {
    let poll = try DevicePoll()
    let (r, w) = pipePair()
    defer { _ = close(r) }
    let token = try poll.add(r, path: "/dev/input/event3")
    _ = close(w)
    #expect(poll.ready() == [token])
    poll.remove(token)
    #expect(poll.ready().isEmpty)
  }

  @Test func tokensAreNotReusedWhenFdNumbersAre() throws {
    let poll = try DevicePoll()
    let (r1, w1) = pipePair()
    let first = try poll.add(r1, path: "/dev/input/event4")
    poll.remove(first)
    _ = close(r1)
    _ = close(w1)
    let (r2, w2) = pipePair()
    defer { [r2, w2].forEach { _ = close($0) } }
    // The kernel usually hands out the same number again (not asserted: tests run in parallel).
    let second = try poll.add(r2, path: "/dev/input/event4")
    #expect(second != first)
  }

  @Test func addingABadFdNamesTheDevice() throws {
    let poll = try DevicePoll()
    #expect(throws: DeviceError.poll(path: "/dev/input/event9", Errno(9))) {  // EBADF
      _ = try poll.add(-1, path: "/dev/input/event9")
    }
    #expect(
      DeviceError.poll(path: "/dev/input/event9", Errno(9)).description.hasPrefix(
        "cannot watch /dev/input/event9 for input (epoll)"))
  }

  @Test("One read source on the set's fd wakes for any member")
  func oneDispatchSourceWakesForAnyMember() throws {
    let poll = try DevicePoll()
    let (r, w) = pipePair()
    defer { [r, w].forEach { _ = close($0) } }
    let token = try poll.add(r, path: "/dev/input/event5")
    let queue = DispatchQueue(label: "poll-test")
    let woke = DispatchSemaphore(value: 0)
    let source = DispatchSource.makeReadSource(fileDescriptor: poll.fileDescriptor, queue: queue)
    nonisolated(unsafe) var seen: [UInt64] = []
    source.setEventHandler {
      let ready = poll.ready()
      guard !ready.isEmpty else { return }
      seen = ready
      var byte: UInt8 = 0
      _ = read(r, &byte, 1)
      woke.signal()
    }
    source.activate()
    #expect(write(w, "z", 1) == 1)
    #expect(woke.wait(timeout: .now() + 5) == .success)
    source.cancel()
    queue.sync {}
    #expect(seen == [token])
  }
}
