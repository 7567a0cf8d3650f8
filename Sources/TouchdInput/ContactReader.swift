/// What reads one device's contacts: a touchscreen's ``FrameAssembler``, or a pen display's
/// ``PenAssembler`` (a device ``DeviceDescription/isPenDisplay``). Live devices
/// and recordings alike.
public enum ContactReader {
  case touchscreen(FrameAssembler)
  case pen(PenAssembler)

  /// The reader for `device`, taking new touch identities from `ids`.
  public init(device: DeviceDescription, ids: TouchIDAllocator) {
    if device.isPenDisplay {
      self = .pen(PenAssembler(device: device, ids: ids))
    } else {
      self = .touchscreen(FrameAssembler(device: device, ids: ids))
    }
  }

  /// The touchscreen's assembler, nil for a pen.
  public var frameAssembler: FrameAssembler? {
    if case .touchscreen(let assembler) = self { assembler } else { nil }
  }

  /// Feeds one event; a frame at `SYN_REPORT` when something changed.
  @inline(__always)
  public func process(_ event: InputEvent) -> TouchFrame? {
    switch self {
    case .touchscreen(let assembler): assembler.process(event)
    case .pen(let assembler): assembler.process(event)
    }
  }

  /// Cancels every live contact; nil when none is live.
  public func cancelAll(at time: Timestamp) -> TouchFrame? {
    switch self {
    case .touchscreen(let assembler): assembler.cancelAll(at: time)
    case .pen(let assembler): assembler.cancelAll(at: time)
    }
  }

  /// Starts a live resync after `SYN_DROPPED`.
  public func beginSync() {
    switch self {
    case .touchscreen(let assembler): assembler.beginSync()
    case .pen(let assembler): assembler.beginSync()
    }
  }

  /// Ends a resync.
  public func endSync(at time: Timestamp) -> TouchFrame? {
    switch self {
    case .touchscreen(let assembler): assembler.endSync(at: time)
    case .pen(let assembler): assembler.endSync(at: time)
    }
  }
}
