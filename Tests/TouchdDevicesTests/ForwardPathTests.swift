import CForwardPath
import CForwardShortcut
import CTouchd
import Foundation
import Testing
import TouchdInput

@testable import TouchdDevices

/// The forwarding path (``ForwardPath``): what the input thread reads, writes and leaves buffered,
/// and when it may touch a device at all. Events come from a scripted reader in place of libevdev;
/// frames go to a pipe in place of uinput.
@Suite("Forwarding path")
struct ForwardPathTests {
  /// Scripted `libevdev_next_event` results; -EAGAIN once they run out. Counts the calls.
  final class Script {
    var results: [(Int32, InputEvent)] = []
    var calls = 0
    func add(_ type: UInt16, _ code: UInt16, _ value: Int32, status: Int32 = 0, at us: Int64 = 1_000_000) {
      results.append((status, InputEvent(time: Timestamp(microseconds: us), type: type, code: code, value: value)))
    }
  }

  static let reader: touchd_path_reader = { context, out in
    let script = Unmanaged<Script>.fromOpaque(context!).takeUnretainedValue()
    script.calls += 1
    guard !script.results.isEmpty else { return -11 }  // -EAGAIN
    let (status, e) = script.results.removeFirst()
    out!.pointee = touchd_shortcut_event(microseconds: e.time.microseconds, type: e.type, code: e.code, value: e.value)
    return status
  }

  /// A path with one entry for a 2-slot device whose slot 0 holds a forwarded touch at (100, 100)
  /// in virtual slot 0; axes 0...1000 on both sides, a 1000 x 1000 window: a raw position is its
  /// virtual one. The entry's frames go to a pipe.
  final class Rig {
    let path = ForwardPath()
    let shortcut = ForwardShortcut(physicalSlots: 2, virtualSlots: 2)
    let script = Script()
    let pipe: (read: Int32, write: Int32)
    var entry: OpaquePointer!

    init() throws {
      var fds: [Int32] = [-1, -1]
      guard Foundation.pipe(&fds) == 0 else { throw POSIXError(.EIO) }
      _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
      pipe = (fds[0], fds[1])
      entry = path.attach(
        reader: ForwardPathTests.reader, context: Unmanaged.passUnretained(script).toOpaque(), output: pipe.write,
        shortcut: shortcut, token: 7)
    }

    deinit {
      path.detach(entry: entry)
      close(pipe.read)
      close(pipe.write)
    }

    /// Arms the composer by hand (``ForwardShortcut/arm`` needs a pipeline; its tests cover it).
    func arm() {
      let c = shortcut.composer
      touchd_shortcut_disarm(c)
      c.pointee.slot_virtual[0] = 0
      c.pointee.slot_virtual[1] = -1
      c.pointee.virtual_physical[0] = 0
      c.pointee.virtual_physical[1] = -1
      (c.pointee.slot_x[0], c.pointee.slot_y[0]) = (100, 100)
      (c.pointee.virtual_x[0], c.pointee.virtual_y[0]) = (100, 100)
      c.pointee.current_slot = 0
      c.pointee.virtual_current_slot = 0
      c.pointee.pointer_slot = -1
      (c.pointee.x_minimum, c.pointee.x_maximum, c.pointee.y_minimum, c.pointee.y_maximum) = (0, 1000, 0, 1000)
      c.pointee.mapping = touchd_shortcut_matrix(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)
      (c.pointee.width, c.pointee.height) = (1000, 1000)
      (c.pointee.axis_x_minimum, c.pointee.axis_x_maximum) = (0, 1000)
      (c.pointee.axis_y_minimum, c.pointee.axis_y_maximum) = (0, 1000)
      c.pointee.deadline = .infinity
      c.pointee.armed = true
    }

    /// Armed (a timer due at `deadline`) and published, as at the end of an input turn.
    func armAndPublish(deadline: Double = .infinity) {
      arm()
      shortcut.composer.pointee.deadline = deadline
      path.publish()
    }

    /// The (type, code, value) of each event written to the pipe so far.
    func written() -> [[Int32]] {
      var out: [[Int32]] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      let size = MemoryLayout<input_event>.stride
      let n = read(pipe.read, &buffer, buffer.count)
      guard n > 0 else { return out }
      for i in 0..<(n / size) {
        let e = buffer.withUnsafeBytes { $0.load(fromByteOffset: i * size, as: input_event.self) }
        out.append([Int32(e.type), Int32(e.code), e.value])
      }
      return out
    }

    /// What the entry buffered, taken out: (status, type, code, value).
    func buffered() -> [[Int32]] {
      var out: [[Int32]] = []
      while let result = LinuxInput.bufferedEvent(entry) {
        switch result {
        case .success(let e): out.append([0, Int32(e.type), Int32(e.code), e.value])
        case .sync(let e): out.append([1, Int32(e.type), Int32(e.code), e.value])
        case .failure(let errno): out.append([-errno.code, 0, 0, 0])
        }
      }
      return out
    }

    func pending() -> [UInt64] {
      var tokens: [UInt64] = []
      path.pending { tokens.append($0) }
      return tokens
    }
  }

  @Test("an armed, published entry: its motion frame is written at once and stays buffered for the pipeline")
  func writesAndBuffers() throws {
    let rig = try Rig()
    rig.armAndPublish()
    rig.script.add(EV.abs, ABS.mtPositionX, 250)
    rig.script.add(EV.msc, 0x05, 1234)  // MSC_TIMESTAMP
    rig.script.add(EV.syn, SYN.report, 0)
    rig.script.add(EV.abs, ABS.mtPositionX, 300)  // the next frame: not the path's
    #expect(rig.path.run() == 1)
    #expect(rig.written() == [[Int32(EV.abs), Int32(ABS.mtPositionX), 250], [Int32(EV.syn), Int32(SYN.report), 0]])
    #expect(rig.shortcut.awaitsConfirmation)
    #expect(rig.shortcut.writtenAt != nil)
    #expect(rig.pending() == [7])
    #expect(
      rig.buffered() == [
        [0, Int32(EV.abs), Int32(ABS.mtPositionX), 250], [0, Int32(EV.msc), 5, 1234],
        [0, Int32(EV.syn), Int32(SYN.report), 0],
      ])
    #expect(rig.pending() == [])
    // One frame per turn: the entry is not live again until the next input turn is published.
    #expect(rig.script.calls == 3)
    #expect(rig.path.run() == 0)
    #expect(rig.script.calls == 3)
  }

  @Test("an entry not published, or settled, is not read")
  func onlyLiveEntriesAreRead() throws {
    let rig = try Rig()
    rig.arm()
    rig.script.add(EV.abs, ABS.mtPositionX, 250)
    rig.script.add(EV.syn, SYN.report, 0)
    #expect(rig.path.run() == 0)
    #expect(rig.script.calls == 0)
    rig.path.publish()
    var settled: [UInt64] = []
    rig.path.settle { settled.append($0) }
    #expect(settled == [])
    #expect(rig.path.run() == 0)
    #expect(rig.script.calls == 0)
    // A disarmed shortcut is not published.
    rig.shortcut.disarm()
    rig.path.publish()
    #expect(rig.path.run() == 0)
    #expect(rig.script.calls == 0)
    #expect(rig.written() == [])
  }

  @Test("nothing to read: the entry stays live for the next wake")
  func emptyReadStaysLive() throws {
    let rig = try Rig()
    rig.armAndPublish()
    #expect(rig.path.run() == 0)
    #expect(rig.script.calls == 1)
    #expect(rig.pending() == [])
    rig.script.add(EV.abs, ABS.mtPositionY, 50)
    rig.script.add(EV.syn, SYN.report, 0)
    #expect(rig.path.run() == 1)
    #expect(rig.written() == [[Int32(EV.abs), Int32(ABS.mtPositionY), 50], [Int32(EV.syn), Int32(SYN.report), 0]])
  }

  @Test("a frame the shortcut does not take is buffered, not written, and disarms it")
  func otherFramesAreThePipelines() throws {
    let rig = try Rig()
    rig.armAndPublish()
    rig.script.add(EV.abs, ABS.mtSlot, 1)
    rig.script.add(EV.abs, ABS.mtTrackingID, 42)  // a touch begins
    rig.script.add(EV.abs, ABS.mtPositionX, 10)
    rig.script.add(EV.syn, SYN.report, 0)
    #expect(rig.path.run() == 0)
    #expect(rig.written() == [])
    #expect(!rig.shortcut.isArmed)
    #expect(rig.buffered().count == 4)
  }

  @Test("SYN_DROPPED ends the path's read and is handed over with its status; part of a frame too")
  func droppedAndPartial() throws {
    let rig = try Rig()
    rig.armAndPublish()
    rig.script.add(EV.abs, ABS.mtPositionX, 250)
    rig.script.add(EV.syn, 3, 0, status: 1)  // SYN_DROPPED
    rig.script.add(EV.syn, SYN.report, 0)
    #expect(rig.path.run() == 0)
    #expect(!rig.shortcut.isArmed)
    #expect(rig.buffered() == [[0, Int32(EV.abs), Int32(ABS.mtPositionX), 250], [1, Int32(EV.syn), 3, 0]])
    #expect(rig.script.results.count == 1)  // the rest is read by the pipeline

    rig.script.results = []
    rig.armAndPublish()
    rig.script.add(EV.abs, ABS.mtPositionX, 260)  // and then nothing yet: half a frame
    #expect(rig.path.run() == 0)
    #expect(!rig.shortcut.isArmed)
    #expect(rig.written() == [])
    var settled: [UInt64] = []
    rig.path.settle { settled.append($0) }
    #expect(settled == [7])
    #expect(rig.buffered() == [[0, Int32(EV.abs), Int32(ABS.mtPositionX), 260]])
  }

  @Test("a frame stamped at the timer's deadline is left to the pipeline, where the timer fires first")
  func deadline() throws {
    let rig = try Rig()
    rig.armAndPublish(deadline: 1.0)
    rig.script.add(EV.abs, ABS.mtPositionX, 250, at: 1_000_000)
    rig.script.add(EV.syn, SYN.report, 0, at: 1_000_000)
    #expect(rig.path.run() == 0)
    #expect(rig.written() == [])
    rig.script.results = []
    _ = rig.buffered()
    rig.armAndPublish(deadline: 1.0)
    rig.script.add(EV.abs, ABS.mtPositionX, 250, at: 999_999)
    rig.script.add(EV.syn, SYN.report, 0, at: 999_999)
    #expect(rig.path.run() == 1)
  }
}
