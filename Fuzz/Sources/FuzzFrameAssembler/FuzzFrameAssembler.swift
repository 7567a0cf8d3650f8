import FuzzSupport
import TouchdInput

#if canImport(Glibc)
  import Glibc
#endif

// The frame assembler (and key assembler) fed arbitrary event sequences against each kind of
// device, as replay and the live daemon feed them: recording-mode `SYN_DROPPED`s, live resyncs
// (`beginSync`…`endSync`), then `cancelAll` (the device goes away). Properties checked
// (`Checker`): a touch id begins once and is never reused; its phases go began → moved or
// stationary … → ended or cancelled; it never appears after its end; every touch live before a
// frame is in it; a frame has a change and no id twice; frames come only at a `SYN_REPORT` (or a
// recording's `SYN_DROPPED`, or `endSync`/`cancelAll`), at most one per event, none while
// resyncing; positions, radius and force are finite (positions and force within 0...1, radius
// ≥ 0); after `cancelAll` nothing is live and a second `cancelAll` reports nothing. Keys: a key goes
// down once before it goes up or is cancelled, a frame holds at most
// `KeyAssembler.maximumFrameChanges` changes, after `cancelAll` no key is down.
//
// # Input format
// Byte 0 chooses the device (`Device.init(_:)`):
//   bits 0-1  kind: 0 protocol B, 1 protocol A, 2 single touch, 3 protocol B with a claimed
//             ABS_MT_SLOT maximum of 99,999 (the assembler caps it at the kernel's 1024)
//   bit 2     keys (KEY_ENTER, KEY_F1, KEY_A…KEY_Z): a KeyAssembler reads the device too
//   bit 3     ABS_MT_TOOL_TYPE (palms)
//   bit 4     ABS_MT_TRACKING_ID (protocol A; protocol B always has it)
//   bit 5     ABS_MT_TOUCH_MAJOR and pressure (ABS_MT_PRESSURE / ABS_PRESSURE)
//   bit 6     BTN_TOUCH
//   bit 7     odd axis ranges: from bytes 2-5 (minimum above maximum, negative, one-value ranges)
// Byte 1: protocol B's slot count − 1 (1...256 slots). Bytes 2-5: X and Y maxima (little-endian
// signed 16 bits; with bit 7 also the minima). The rest: events of 5 bytes each,
// [op, time, v0, v1, v2] (`Event.decode`):
//   op & 0x1f  what (`Event.table`): SYN_REPORT (three entries, so frames are frequent),
//              SYN_MT_REPORT, SYN_DROPPED, a live resync's begin and end, the ABS_MT_* codes, ABS_X,
//              ABS_Y, ABS_PRESSURE, BTN_TOUCH, keys, a SYN_REPORT of value 1, and any type/code
//              (from v1, v2)
//   op >> 5    the value: v0 as Int8; v0 v1 as Int16; within the axis range; -1; an extreme
//              (Int32.min, Int32.max, 0); a key value 0/1/2; v0 as a slot or id 0...255; v0 v1 v2 as
//              a 24-bit signed number
//   time       the time step: < 200 that many µs; < 240 none; < 250 backwards by up to 10 ms;
//              else forwards by hours
//
// # Seed corpus
// `FuzzFrameAssembler --make-corpus DIR` writes one file per seed into DIR (`seeds`): taps, drags,
// pinches, resyncs, SYN_DROPPED, palms, slot and tracking-id abuse, keys, on every kind of device.
// libFuzzer also finds its way from an empty corpus.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameAssembler(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = fuzzBytes(data, size)
  guard bytes.count >= 6 else { return 0 }
  let device = Device(bytes)
  var checker = Checker(device: device.description)
  var time = Timestamp(microseconds: 1_000_000)
  var syncing = false
  var offset = 6
  while offset + 5 <= bytes.count {
    let event = Event.decode(bytes[offset..<offset + 5], device: device, time: &time)
    offset += 5
    switch event {
    case .beginSync:
      guard !syncing else { continue }
      syncing = true
      checker.beginSync()
    case .endSync:
      guard syncing else { continue }
      syncing = false
      checker.endSync(at: time)
    case .input(let input):
      checker.feed(input, syncing: syncing)
    }
  }
  checker.finish(at: time)
  return 0
}

@_cdecl("FuzzFrameAssembler_main")
func fuzzFrameAssemblerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  if argc == 3, let argv, let flag = argv[1], String(cString: flag) == "--make-corpus", let dir = argv[2] {
    return writeCorpus(to: String(cString: dir))
  }
  return runFuzzer(argc, argv, fuzzFrameAssembler)
}

// MARK: - The device

/// The device byte 0 (and bytes 1-5) describe.
struct Device {
  enum Kind { case protocolB, protocolA, singleTouch }
  let kind: Kind
  let description: DeviceDescription
  let hasKeys: Bool
  let xRange: ClosedRange<Int32>

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    let flags = bytes[0]
    func int16(_ i: Int) -> Int32 { Int32(Int16(bitPattern: UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8)) }
    let odd = flags & 0x80 != 0
    let xMax = odd ? int16(2) : Swift.max(1, Swift.abs(int16(2)))
    let yMax = odd ? int16(4) : Swift.max(1, Swift.abs(int16(4)))
    let xMin: Int32 = odd ? Int32(Int8(bitPattern: bytes[3])) * 64 : 0
    let yMin: Int32 = odd ? Int32(Int8(bitPattern: bytes[5])) * 64 : 0
    var events: [UInt16: Set<UInt16>] = [EV.syn: [SYN.report, SYN.dropped]]
    var absInfo: [UInt16: AbsInfo] = [:]
    func add(_ code: UInt16, _ minimum: Int32, _ maximum: Int32) {
      events[EV.abs, default: []].insert(code)
      absInfo[code] = AbsInfo(minimum: minimum, maximum: maximum)
    }
    var keys: Set<UInt16> = []
    if flags & 0x40 != 0 { keys.insert(BTN.touch) }
    hasKeys = flags & 0x04 != 0
    if hasKeys { keys.formUnion([28, 59] + (30...50).map { UInt16($0) }) }
    add(ABS.x, xMin, xMax)
    add(ABS.y, yMin, yMax)
    switch flags & 0x03 {
    case 1: kind = .protocolA
    case 2: kind = .singleTouch
    default: kind = .protocolB
    }
    if kind != .singleTouch {
      add(ABS.mtPositionX, xMin, xMax)
      add(ABS.mtPositionY, yMin, yMax)
      if kind == .protocolB {
        add(ABS.mtSlot, 0, flags & 0x03 == 3 ? 99_999 : Int32(bytes[1]))
        add(ABS.mtTrackingID, 0, 65_535)
      } else if flags & 0x10 != 0 {
        add(ABS.mtTrackingID, 0, 65_535)
      }
      if flags & 0x08 != 0 { add(ABS.mtToolType, 0, 2) }
      if flags & 0x20 != 0 {
        add(ABS.mtTouchMajor, 0, 255)
        add(ABS.mtPressure, 0, 255)
      }
    } else if flags & 0x20 != 0 {
      add(ABS.pressure, 0, 255)
    }
    if !keys.isEmpty { events[EV.key] = keys }
    description = DeviceDescription(
      name: "fuzz device", id: InputID(bustype: 3, vendor: 1, product: 2, version: 0),
      properties: [InputProp.direct], events: events, absInfo: absInfo)
    xRange = Swift.min(xMin, xMax)...Swift.max(xMin, xMax)
  }
}

// MARK: - Events

enum Event {
  case input(InputEvent)
  case beginSync
  case endSync

  /// What each op (its low 5 bits) sends: a type and code, or a resync's begin or end, or a type
  /// and code taken from the value bytes (nil code: `v2` is the code, nil type: `v1` is the type).
  enum Entry {
    case event(UInt16, UInt16)
    case beginSync, endSync
    case anyABS, anyKey, anything
    case reportOne
  }

  static let table: [Entry] = [
    .event(EV.syn, SYN.report), .event(EV.syn, SYN.report), .event(EV.syn, SYN.report),
    .event(EV.syn, SYN.mtReport), .event(EV.syn, SYN.dropped), .beginSync, .endSync,
    .event(EV.abs, ABS.mtSlot), .event(EV.abs, ABS.mtTrackingID), .event(EV.abs, ABS.mtTrackingID),
    .event(EV.abs, ABS.mtPositionX), .event(EV.abs, ABS.mtPositionY), .event(EV.abs, ABS.mtPositionX),
    .event(EV.abs, ABS.mtPositionY), .event(EV.abs, ABS.mtTouchMajor), .event(EV.abs, ABS.mtPressure),
    .event(EV.abs, ABS.mtToolType), .event(EV.abs, ABS.x), .event(EV.abs, ABS.y), .event(EV.abs, ABS.pressure),
    .event(EV.key, BTN.touch), .event(EV.key, BTN.touch), .event(EV.key, 28), .event(EV.key, 59), .anyKey,
    .anyABS, .anything, .reportOne, .event(EV.abs, ABS.mtSlot), .event(EV.abs, ABS.mtTrackingID),
    .event(EV.syn, SYN.report), .event(EV.key, 30),
  ]

  static func decode(_ five: Slice<UnsafeBufferPointer<UInt8>>, device: Device, time: inout Timestamp) -> Event {
    let b = Array(five)
    let (op, step, v0, v1, v2) = (b[0], b[1], b[2], b[3], b[4])
    switch step {
    case 0..<200: time.microseconds &+= Int64(step)
    case 200..<240: break
    case 240..<250: time.microseconds &-= Int64(step - 239) * 1000
    default: time.microseconds &+= Int64(step - 249) * 3_600_000_000
    }
    let value: Int32
    switch op >> 5 {
    case 0: value = Int32(Int8(bitPattern: v0))
    case 1: value = Int32(Int16(bitPattern: UInt16(v0) | UInt16(v1) << 8))
    case 2:
      let span = Int64(device.xRange.upperBound) - Int64(device.xRange.lowerBound) + 1
      value = Int32(Int64(device.xRange.lowerBound) + Int64(UInt16(v0) | UInt16(v1) << 8) % span)
    case 3: value = -1
    case 4: value = [Int32.min, Int32.max, 0][Int(v0) % 3]
    case 5: value = Int32(v0 % 3)
    case 6: value = Int32(v0)
    default: value = Int32(bitPattern: (UInt32(v0) | UInt32(v1) << 8 | UInt32(v2) << 16) << 8) >> 8
    }
    let (type, code): (UInt16, UInt16)
    switch table[Int(op & 0x1f)] {
    case .event(let t, let c): (type, code) = (t, c)
    case .beginSync: return .beginSync
    case .endSync: return .endSync
    case .anyABS: (type, code) = (EV.abs, UInt16(v2 & 0x3f))
    case .anyKey: (type, code) = (EV.key, UInt16(v2) | UInt16(v1 & 0x03) << 8)
    case .anything: (type, code) = (UInt16(v1 & 0x1f), UInt16(v2))
    case .reportOne: return .input(InputEvent(time: time, type: EV.syn, code: SYN.report, value: 1))
    }
    return .input(InputEvent(time: time, type: type, code: code, value: value))
  }
}

// MARK: - The properties

struct Checker {
  let touches: FrameAssembler
  let keys: KeyAssembler?
  /// Touches live (began, not yet ended or cancelled); touches that ended.
  var live: Set<UInt64> = []
  var finished: Set<UInt64> = []
  /// Keys reported down.
  var keysDown: Set<UInt16> = []

  init(device: DeviceDescription) {
    touches = FrameAssembler(device: device, ids: TouchIDAllocator())
    keys = KeyAssembler.hasKeys(device) ? KeyAssembler(device: device) : nil
  }

  mutating func beginSync() {
    touches.beginSync()
    keys?.beginSync()
  }

  mutating func endSync(at time: Timestamp) {
    if let frame = touches.endSync(at: time) { check(frame, at: time, context: "endSync") }
    if let frame = keys?.endSync(at: time) { check(frame, context: "endSync") }
  }

  mutating func feed(_ event: InputEvent, syncing: Bool) {
    if let frame = touches.process(event) {
      if syncing { fuzzFailure("a touch frame during a resync, at \(event)") }
      let isReport = event.type == EV.syn && (event.code == SYN.report || event.code == SYN.dropped)
      if !isReport { fuzzFailure("a touch frame at an event that is no SYN_REPORT or SYN_DROPPED: \(event)") }
      check(frame, at: event.time, context: "\(event)")
    }
    if let frame = keys?.process(event) {
      if syncing { fuzzFailure("a key frame during a resync, at \(event)") }
      check(frame, context: "\(event)")
    }
  }

  mutating func finish(at time: Timestamp) {
    if let frame = touches.cancelAll(at: time) {
      check(frame, at: time, context: "cancelAll")
      if frame.contacts.contains(where: { $0.phase != .cancelled }) {
        fuzzFailure("cancelAll reported a phase other than cancelled: \(frame)")
      }
    }
    if !live.isEmpty { fuzzFailure("touches \(live.sorted()) still live after cancelAll") }
    if let frame = touches.cancelAll(at: time) { fuzzFailure("a second cancelAll reported \(frame)") }
    if let keys {
      if let frame = keys.cancelAll(at: time) { check(frame, context: "cancelAll") }
      if !keysDown.isEmpty || !keys.keysDown.isEmpty { fuzzFailure("keys still down after cancelAll") }
    }
  }

  mutating func check(_ frame: TouchFrame, at time: Timestamp, context: String) {
    if frame.time != time { fuzzFailure("\(context): frame time \(frame.time) is not \(time)") }
    if frame.contacts.isEmpty { fuzzFailure("\(context): an empty frame") }
    if !frame.contacts.contains(where: { $0.phase != .stationary }) {
      fuzzFailure("\(context): a frame without a change: \(frame)")
    }
    var seen: Set<UInt64> = []
    for contact in frame.contacts {
      let id = contact.id.rawValue
      if !seen.insert(id).inserted { fuzzFailure("\(context): touch \(id) twice in a frame: \(frame)") }
      if finished.contains(id) { fuzzFailure("\(context): touch \(id) appears after its end: \(frame)") }
      guard contact.x.isFinite, contact.y.isFinite, (0...1).contains(contact.x), (0...1).contains(contact.y) else {
        fuzzFailure("\(context): position out of 0...1: \(contact)")
      }
      if let r = contact.majorRadius, !(r.isFinite && r >= 0) { fuzzFailure("\(context): radius \(r): \(contact)") }
      if let f = contact.force, !(f.isFinite && (0...1).contains(f)) {
        fuzzFailure("\(context): force \(f): \(contact)")
      }
      switch contact.phase {
      case .began:
        if live.contains(id) { fuzzFailure("\(context): touch \(id) began twice: \(frame)") }
      case .moved, .stationary, .ended, .cancelled:
        if !live.contains(id) { fuzzFailure("\(context): touch \(id) \(contact.phase) before it began: \(frame)") }
      }
    }
    let missing = live.subtracting(seen)
    if !missing.isEmpty { fuzzFailure("\(context): live touches \(missing.sorted()) missing from \(frame)") }
    for contact in frame.contacts {
      let id = contact.id.rawValue
      if contact.phase == .began { live.insert(id) }
      if contact.phase.isTerminal {
        live.remove(id)
        finished.insert(id)
      }
    }
  }

  mutating func check(_ frame: KeyFrame, context: String) {
    if frame.changes.isEmpty { fuzzFailure("\(context): an empty key frame") }
    if frame.changes.count > KeyAssembler.maximumFrameChanges {
      fuzzFailure("\(context): \(frame.changes.count) key changes in one frame")
    }
    for change in frame.changes {
      switch change.phase {
      case .down:
        if !keysDown.insert(change.code).inserted { fuzzFailure("\(context): key \(change.code) down twice") }
      case .up, .cancelled:
        if keysDown.remove(change.code) == nil {
          fuzzFailure("\(context): key \(change.code) \(change.phase) while not down")
        }
      }
    }
    let reported = keys?.keysDown ?? []
    if Set(reported) != keysDown || reported.count != keysDown.count {
      fuzzFailure("\(context): the frames say \(keysDown.sorted()) down, the assembler \(reported)")
    }
  }
}

// MARK: - Seeds

/// Builds inputs in the format above.
struct SeedWriter {
  var bytes: [UInt8]

  /// A device: `flags` (byte 0), `slots` (protocol B), X and Y maxima.
  init(flags: UInt8, slots: UInt8 = 9, xMax: Int16 = 1000, yMax: Int16 = 600) {
    let x = UInt16(bitPattern: xMax)
    let y = UInt16(bitPattern: yMax)
    bytes = [flags, slots, UInt8(x & 0xff), UInt8(x >> 8), UInt8(y & 0xff), UInt8(y >> 8)]
  }

  /// The op whose table entry is `entry`'s first occurrence, with value mode `mode`.
  static func op(_ index: Int, mode: UInt8) -> UInt8 { UInt8(index) | mode << 5 }

  mutating func add(_ index: Int, mode: UInt8 = 1, value: Int32 = 0, step: UInt8 = 0) {
    let v = UInt32(bitPattern: value)
    bytes += [Self.op(index, mode: mode), step, UInt8(v & 0xff), UInt8((v >> 8) & 0xff), UInt8((v >> 16) & 0xff)]
  }

  // Table indices (Event.table).
  static let report = 0, mtReport = 3, dropped = 4, beginSync = 5, endSync = 6, slot = 7, trackingID = 8
  static let mtX = 10, mtY = 11, major = 14, pressure = 15, tool = 16, absX = 17, absY = 18, touch = 20
  static let enter = 22, f1 = 23

  mutating func report(step: UInt8 = 100) { add(Self.report, step: step) }
  mutating func slot(_ s: Int32) { add(Self.slot, mode: 1, value: s) }
  mutating func id(_ i: Int32) { add(Self.trackingID, mode: 1, value: i) }
  mutating func x(_ v: Int32) { add(Self.mtX, mode: 1, value: v) }
  mutating func y(_ v: Int32) { add(Self.mtY, mode: 1, value: v) }
  mutating func touch(_ down: Bool) { add(Self.touch, mode: 5, value: down ? 1 : 0) }
}

/// The seed corpus: a few gestures and abuses on each kind of device.
func seeds() -> [(String, [UInt8])] {
  var out: [(String, [UInt8])] = []
  // Protocol B: two fingers down, moved, one reuses its id, slot 40 on a 10-slot device, lifted.
  var b = SeedWriter(flags: 0x40 | 0x20 | 0x08, slots: 9)
  b.slot(0)
  b.id(1)
  b.x(100)
  b.y(100)
  b.slot(1)
  b.id(2)
  b.x(500)
  b.touch(true)
  b.report()
  for step in 1...5 {
    b.slot(0)
    b.x(100 + Int32(step) * 20)
    b.slot(1)
    b.y(100 + Int32(step) * 20)
    b.report()
  }
  b.slot(1)
  b.id(7)
  b.slot(40)
  b.x(900)
  b.report()
  b.add(SeedWriter.tool, mode: 6, value: 2)
  b.report()
  b.slot(0)
  b.id(-1)
  b.slot(1)
  b.id(-1)
  b.touch(false)
  b.report()
  out.append(("protocol-b-two-fingers", b.bytes))
  // Protocol B: a SYN_DROPPED storm in a recording, then a live resync.
  var storm = SeedWriter(flags: 0x40, slots: 4)
  storm.id(1)
  storm.x(300)
  storm.report()
  for _ in 0..<5 {
    storm.add(SeedWriter.dropped)
    storm.x(301)
    storm.report(step: 1)
  }
  storm.id(9)
  storm.report()
  storm.add(SeedWriter.beginSync)
  storm.id(-1)
  storm.report()
  storm.slot(2)
  storm.id(4)
  storm.x(20)
  storm.report()
  storm.add(SeedWriter.endSync)
  storm.x(40)
  storm.report(step: 245)
  out.append(("protocol-b-drops-and-resync", storm.bytes))
  // 1024 slots claimed: fingers in high slots, time jumping by hours.
  var wide = SeedWriter(flags: 0x03 | 0x40)
  for s: Int32 in [0, 500, 1023, 1500, -3] {
    wide.slot(s)
    wide.id(s &+ 10)
    wide.x(s)
  }
  wide.report(step: 251)
  out.append(("protocol-b-wide", wide.bytes))
  // Protocol A with tracking ids: two contacts, one lifts, BTN_TOUCH 0.
  var a = SeedWriter(flags: 0x01 | 0x10 | 0x40 | 0x08)
  for frame in 0..<4 {
    a.add(SeedWriter.trackingID, mode: 6, value: 3)
    a.x(100 + Int32(frame) * 10)
    a.y(100)
    a.add(SeedWriter.mtReport)
    if frame < 3 {
      a.add(SeedWriter.trackingID, mode: 6, value: 4)
      a.x(700)
      a.y(300 - Int32(frame) * 10)
      a.add(SeedWriter.mtReport)
    }
    a.report()
  }
  a.add(SeedWriter.mtReport)
  a.touch(false)
  a.report()
  out.append(("protocol-a-ids", a.bytes))
  // Protocol A without ids: three anonymous contacts crossing, a palm, a drop.
  var anon = SeedWriter(flags: 0x01 | 0x08 | 0x20, xMax: 4095, yMax: 4095)
  for frame in 0..<4 {
    for c in 0..<3 {
      anon.x(Int32(1000 * c + frame * 300))
      anon.y(2000)
      if frame == 2 && c == 1 { anon.add(SeedWriter.tool, mode: 6, value: 2) }
      anon.add(SeedWriter.mtReport)
    }
    anon.report()
  }
  anon.add(SeedWriter.dropped)
  anon.report()
  out.append(("protocol-a-anonymous", anon.bytes))
  // Single touch with pressure, out-of-range positions, keys.
  var single = SeedWriter(flags: 0x02 | 0x40 | 0x20 | 0x04)
  single.add(SeedWriter.absX, mode: 1, value: -500)
  single.add(SeedWriter.absY, mode: 4, value: 1)
  single.touch(true)
  single.add(SeedWriter.enter, mode: 5, value: 1)
  single.report()
  single.add(SeedWriter.absX, mode: 2, value: 0x1234)
  single.add(SeedWriter.enter, mode: 5, value: 2)
  single.add(SeedWriter.f1, mode: 5, value: 1)
  single.report(step: 242)
  single.touch(false)
  single.add(SeedWriter.enter, mode: 5, value: 0)
  single.report()
  out.append(("single-touch-keys", single.bytes))
  // Odd axis ranges (minimum above maximum).
  var odd = SeedWriter(flags: 0x80 | 0x40, slots: 1, xMax: -20, yMax: 0)
  odd.id(1)
  odd.x(7)
  odd.touch(true)
  odd.report()
  out.append(("odd-ranges", odd.bytes))
  return out
}

/// Writes ``seeds()`` into `directory` (which must exist); 0 on success.
func writeCorpus(to directory: String) -> CInt {
  for (name, bytes) in seeds() {
    let path = directory + "/" + name
    guard let file = fopen(path, "wb") else {
      print("FuzzFrameAssembler: cannot write \(path)")
      return 1
    }
    let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
    guard written == bytes.count else {
      print("FuzzFrameAssembler: short write to \(path)")
      return 1
    }
  }
  print("FuzzFrameAssembler: \(seeds().count) seeds in \(directory)")
  return 0
}
