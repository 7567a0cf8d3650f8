import Testing
import TouchdInput
import TouchdSystem

@testable import TouchdDevices

/// A scripted `libevdev_next_event`: returns its results in order and records the modes asked for.
final class FakeSource {
  private var results: [EvdevReadResult]
  private(set) var modes: [EvdevReadMode] = []

  init(_ results: [EvdevReadResult]) { self.results = results }

  func next(_ mode: EvdevReadMode) -> EvdevReadResult {
    modes.append(mode)
    return results.isEmpty ? .failure(.wouldBlock) : results.removeFirst()
  }
}

@Suite struct ErrnoTests {
  @Test func errnoMeanings() {
    #expect(ReadErrnoMeaning(Errno(11)) == .drained)  // EAGAIN
    #expect(ReadErrnoMeaning(Errno(19)) == .unplugged)  // ENODEV
    #expect(ReadErrnoMeaning(Errno(4)) == .retry)  // EINTR
    #expect(ReadErrnoMeaning(Errno(5)) == .failure)  // EIO
    #expect(ReadErrnoMeaning(Errno(13)) == .failure)  // EACCES
  }

  @Test func libevdevStatusMapping() {
    let event = Fixtures.event(1, EV.abs, ABS.x, 7)
    #expect(EvdevReadResult(status: 0, event: event) == .success(event))
    #expect(EvdevReadResult(status: 1, event: event) == .sync(event))
    #expect(EvdevReadResult(status: -11, event: event) == .failure(.wouldBlock))
    #expect(EvdevReadResult(status: -19, event: event) == .failure(.noDevice))
  }

  @Test func errorsNameTheDeviceAndHintAtTheInputGroup() {
    let denied = DeviceError.open(path: "/dev/input/event7", .permissionDenied)
    #expect(denied.path == "/dev/input/event7")
    #expect(denied.isPermissionDenied)
    #expect(denied.description.contains("/dev/input/event7"))
    #expect(denied.description.contains("`input` group"))
    let io = DeviceError.read(path: "/dev/input/event3", Errno(5))
    #expect(!io.isPermissionDenied)
    #expect(io.description == "cannot read events from /dev/input/event3: Input/output error")
  }
}

@Suite struct DrainTests {
  let down = Fixtures.event(1, EV.key, BTN.touch, 1)
  let report = Fixtures.event(1, EV.syn, SYN.report, 0)
  let dropped = Fixtures.event(2, EV.syn, SYN.dropped, 0)

  @Test func normalEventsUntilEAGAIN() throws {
    let source = FakeSource([.success(down), .success(report), .failure(.wouldBlock), .success(down)])
    var items: [EvdevItem] = []
    let status = try drainEvents(path: "/dev/input/event1", next: source.next) { items.append($0) }
    #expect(status == .drained)
    #expect(items == [.event(down), .event(report)])
    #expect(source.modes == [.normal, .normal, .normal])
  }

  @Test func synDroppedSwitchesToSyncModeUntilEAGAINThenBack() throws {
    let sync = Fixtures.event(2, EV.abs, ABS.x, 5)
    let source = FakeSource([
      .success(down), .sync(dropped), .sync(sync), .success(report), .failure(.wouldBlock), .success(down),
      .failure(.wouldBlock),
    ])
    var items: [EvdevItem] = []
    let status = try drainEvents(path: "/dev/input/event1", next: source.next) { items.append($0) }
    #expect(status == .drained)
    #expect(items == [.event(down), .dropped(dropped), .syncEvent(sync), .syncEvent(report), .syncEnded, .event(down)])
    #expect(source.modes == [.normal, .normal, .sync, .sync, .sync, .normal, .normal])
  }

  @Test func eintrIsRetriedInTheSameMode() throws {
    let source = FakeSource([.sync(dropped), .failure(.interrupted), .success(report), .failure(.wouldBlock)])
    var items: [EvdevItem] = []
    _ = try drainEvents(path: "/dev/input/event1", next: source.next) { items.append($0) }
    #expect(items == [.dropped(dropped), .syncEvent(report), .syncEnded])
    #expect(source.modes == [.normal, .sync, .sync, .sync, .normal])
  }

  @Test func enodevIsRemovalNotAnError() throws {
    let source = FakeSource([.success(down), .failure(.noDevice), .success(down)])
    var items: [EvdevItem] = []
    let status = try drainEvents(path: "/dev/input/event1", next: source.next) { items.append($0) }
    #expect(status == .removed)
    #expect(items == [.event(down)])
  }

  @Test func otherErrorsThrowWithThePath() {
    let source = FakeSource([.failure(Errno(5))])
    #expect(throws: DeviceError.read(path: "/dev/input/event9", Errno(5))) {
      try drainEvents(path: "/dev/input/event9", next: source.next) { _ in }
    }
  }
}
