import TouchdInput
import TouchdSystem

/// Which events `libevdev_next_event` is asked for.
enum EvdevReadMode: Equatable {
  /// `LIBEVDEV_READ_FLAG_NORMAL`: the kernel's events.
  case normal
  /// `LIBEVDEV_READ_FLAG_SYNC`: the events libevdev synthesizes after `SYN_DROPPED` to bring the
  /// caller's state up to the device's.
  case sync
}

/// One `libevdev_next_event` result.
public enum EvdevReadResult: Equatable, Sendable {
  /// `LIBEVDEV_READ_STATUS_SUCCESS`: an event.
  case success(InputEvent)
  /// `LIBEVDEV_READ_STATUS_SYNC`: in normal mode the `SYN_DROPPED` event (a resync must follow);
  /// in sync mode one synthesized sync event.
  case sync(InputEvent)
  /// A negative return: `-errno`.
  case failure(Errno)

  /// Maps libevdev's return value; `event` is only meaningful on success or sync.
  init(status: Int32, event: InputEvent) {
    switch status {
    case 0: self = .success(event)
    case 1: self = .sync(event)
    default: self = .failure(Errno(status < 0 ? -status : status))
    }
  }
}

/// What an errno from reading an evdev node means to touchd.
enum ReadErrnoMeaning: Equatable {
  /// EAGAIN: nothing more to read now (or, in sync mode, the resync is complete).
  case drained
  /// ENODEV: the device was unplugged. Normal, not an error.
  case unplugged
  /// EINTR: a signal interrupted the read; read again.
  case retry
  /// Anything else: a real error, reported with the device's path.
  case failure

  /// libevdev makes the read(2) and returns its errno: sorted as the system-call seam sorts one
  /// (``ErrnoSort``), but an errno that would be touchd's bug there is reported as a failure of
  /// the device here, since the descriptor is in libevdev's hands.
  init(_ errno: Errno) {
    guard errno != .noDevice else {
      self = .unplugged
      return
    }
    switch ErrnoSort(errno.code) {
    case .retry: self = .retry
    case .wouldBlock: self = .drained
    case .bug, .expected: self = .failure
    }
  }
}

/// What a device's reader delivers, in order.
enum EvdevItem: Equatable {
  /// A kernel event.
  case event(InputEvent)
  /// `SYN_DROPPED`: the kernel's buffer overflowed and events were lost; a resync begins.
  case dropped(InputEvent)
  /// An event libevdev synthesized during the resync.
  case syncEvent(InputEvent)
  /// The resync is complete: the state is the device's again.
  case syncEnded
}

/// How a drain ended.
public enum DeviceReadStatus: Equatable, Sendable {
  /// Every pending event was read; wait for the fd to become readable again.
  case drained
  /// The device is gone (ENODEV); close it.
  case removed
}

/// Reads until EAGAIN through `next` (libevdev_next_event, or a fake in tests), handling
/// `SYN_DROPPED` by switching to sync mode until libevdev's resync is complete, then back.
///
/// Runs on the caller's thread; `next` and `handle` are called synchronously.
func drainEvents(
  path: String, next: (EvdevReadMode) -> EvdevReadResult, handle: (EvdevItem) -> Void
) throws(DeviceError) -> DeviceReadStatus {
  var mode = EvdevReadMode.normal
  while true {
    switch (next(mode), mode) {
    case (.success(let event), .normal):
      handle(.event(event))
    case (.sync(let event), .normal):
      handle(.dropped(event))
      mode = .sync
    case (.success(let event), .sync), (.sync(let event), .sync):
      handle(.syncEvent(event))
    case (.failure(let errno), _):
      switch ReadErrnoMeaning(errno) {
      case .drained:
        guard mode == .sync else { return .drained }
        handle(.syncEnded)
        mode = .normal
      case .unplugged:
        return .removed
      case .retry:
        continue
      case .failure:
        throw .read(path: path, errno)
      }
    }
  }
}
