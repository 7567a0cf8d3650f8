import Foundation
import TouchdInput

/// A synthetic multitouch touchscreen (protocol B): 0...4095 on both axes, 10 slots, INPUT_PROP_DIRECT.
public enum SyntheticTouchscreen {
  /// The device's name, as a recording's `N:` line gives it.
  public static let name = "touchd synthetic touchscreen"
  /// The largest axis value; the smallest is 0.
  public static let axisMaximum: Int32 = 4095
  /// Number of multitouch slots.
  public static let slots = 10

  /// The axis unit at `fraction` of an axis (``AbsInfo/units(atFraction:)``): what the device
  /// reports for a position, and the inverse of the pipeline's normalization.
  public static func units(_ fraction: Double) -> Int32 {
    AbsInfo(minimum: 0, maximum: axisMaximum).units(atFraction: fraction)
  }

  /// The device description: BTN_TOUCH, ABS_X/Y, ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X/Y.
  public static var description: DeviceDescription {
    let axis = AbsInfo(minimum: 0, maximum: axisMaximum, resolution: 16)
    return DeviceDescription(
      name: name, id: InputID(bustype: 0x03, vendor: 0x1d6b, product: 0x7a11, version: 1),
      properties: [InputProp.direct],
      events: [
        EV.syn: [SYN.report], EV.key: [BTN.touch],
        EV.abs: [ABS.x, ABS.y, ABS.mtSlot, ABS.mtTrackingID, ABS.mtPositionX, ABS.mtPositionY],
      ],
      absInfo: [
        ABS.x: axis, ABS.y: axis, ABS.mtPositionX: axis, ABS.mtPositionY: axis,
        ABS.mtSlot: AbsInfo(minimum: 0, maximum: Int32(slots - 1)),
        ABS.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
      ])
  }
}

/// Scripted fingers that synthesize a recording: place, move and lift fingers in window points of
/// a window of the given size; the script converts to device units of ``SyntheticTouchscreen`` and
/// writes protocol-B events (slots, tracking ids, BTN_TOUCH, ABS_X/Y), one frame per sample.
///
/// Time starts at ``time`` and moves only with the script: movements take their duration, sampled
/// at ``sampleRate``; ``wait(_:)`` adds a pause without events.
///
/// ```swift
/// let script = FingerScript(windowWidth: 1920, windowHeight: 1080)
/// script.tap(at: .init(x: 400, y: 480))
/// script.wait(1)
/// script.pinch(center: .init(x: 960, y: 540), fromDistance: 200, toDistance: 400, duration: 0.5)
/// let text = script.evemuText
/// ```
public final class FingerScript {
  /// A point in window points.
  public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
      self.x = x
      self.y = y
    }
  }

  /// A finger put down by ``down(_:)``: its slot.
  public typealias Finger = Int

  public let windowWidth: Double
  public let windowHeight: Double
  public let device: DeviceDescription
  /// Frames per second while fingers move (default 120).
  public var sampleRate: Double
  /// The script's current time in seconds.
  public private(set) var time: Double
  /// The events so far.
  public private(set) var events: [InputEvent] = []

  private var slotPositions: [Point?] = Array(repeating: nil, count: SyntheticTouchscreen.slots)
  private var nextTrackingID: Int32 = 1
  private var lastSlot: Int32?

  public init(
    windowWidth: Double = 1920, windowHeight: Double = 1080,
    device: DeviceDescription = SyntheticTouchscreen.description,
    start: Double = 1, sampleRate: Double = 120
  ) {
    self.windowWidth = windowWidth
    self.windowHeight = windowHeight
    self.device = device
    self.time = start
    self.sampleRate = sampleRate
  }

  /// The recording of the script so far.
  public var recording: Recording {
    Recording(description: device, events: events, source: "finger script")
  }

  /// The recording as evemu text.
  public var evemuText: String { EvemuWriter.write(recording) }

  /// Fingers currently down.
  public var fingersDown: [Finger] { slotPositions.indices.filter { slotPositions[$0] != nil } }

  // MARK: Primitives

  /// Lets `seconds` pass without events.
  public func wait(_ seconds: Double) { time += seconds }

  /// Puts fingers down at `points` in one frame; returns them in the same order.
  @discardableResult
  public func down(_ points: [Point]) -> [Finger] {
    var fingers: [Finger] = []
    let wasEmpty = fingersDown.isEmpty
    for point in points {
      guard let slot = slotPositions.firstIndex(where: { $0 == nil }) else {
        preconditionFailure("FingerScript: all \(SyntheticTouchscreen.slots) slots are down")
      }
      slotPositions[slot] = point
      selectSlot(slot)
      emit(EV.abs, ABS.mtTrackingID, nextTrackingID)
      nextTrackingID += 1
      emit(EV.abs, ABS.mtPositionX, deviceX(point.x))
      emit(EV.abs, ABS.mtPositionY, deviceY(point.y))
      fingers.append(slot)
    }
    if wasEmpty && !points.isEmpty { emit(EV.key, BTN.touch, 1) }
    endFrame()
    return fingers
  }

  /// Moves fingers to `points` in one frame.
  public func move(_ fingers: [Finger], to points: [Point]) {
    for (finger, point) in zip(fingers, points) {
      guard let old = slotPositions[finger] else { continue }
      slotPositions[finger] = point
      let (ox, oy) = (deviceX(old.x), deviceY(old.y))
      let (nx, ny) = (deviceX(point.x), deviceY(point.y))
      if ox == nx && oy == ny { continue }
      selectSlot(finger)
      if nx != ox { emit(EV.abs, ABS.mtPositionX, nx) }
      if ny != oy { emit(EV.abs, ABS.mtPositionY, ny) }
    }
    endFrame()
  }

  /// Lifts fingers in one frame.
  public func up(_ fingers: [Finger]) {
    for finger in fingers where slotPositions[finger] != nil {
      slotPositions[finger] = nil
      selectSlot(finger)
      emit(EV.abs, ABS.mtTrackingID, -1)
    }
    if fingersDown.isEmpty { emit(EV.key, BTN.touch, 0) }
    endFrame()
  }

  /// Moves fingers along paths over `duration` seconds, one frame per sample; `path(finger index,
  /// progress 0...1)` gives each finger's position.
  public func animate(_ fingers: [Finger], duration: Double, path: (Int, Double) -> Point) {
    let steps = max(1, Int((duration * sampleRate).rounded()))
    for step in 1...steps {
      time += duration / Double(steps)
      let progress = Double(step) / Double(steps)
      move(fingers, to: fingers.indices.map { path($0, progress) })
    }
  }

  // MARK: Gestures

  /// `count` fingers in a row around `center`, `spacing` points apart.
  public static func row(_ count: Int, around center: Point, spacing: Double = 40) -> [Point] {
    (0..<count).map { i in Point(x: center.x + (Double(i) - Double(count - 1) / 2) * spacing, y: center.y) }
  }

  /// Touches down with `fingers` fingers and lifts them `duration` seconds later.
  public func tap(at point: Point, fingers: Int = 1, duration: Double = 0.05) {
    let down = down(Self.row(fingers, around: point))
    time += duration
    up(down)
  }

  /// Two taps `interval` seconds apart (lift to touch-down).
  public func doubleTap(at point: Point, fingers: Int = 1, duration: Double = 0.05, interval: Double = 0.15) {
    tap(at: point, fingers: fingers, duration: duration)
    time += interval
    tap(at: point, fingers: fingers, duration: duration)
  }

  /// Holds `fingers` fingers still at `point` for `duration` seconds, then lifts them.
  public func longPress(at point: Point, duration: Double, fingers: Int = 1) {
    let down = down(Self.row(fingers, around: point))
    time += duration
    up(down)
  }

  /// Drags `fingers` fingers (in a row) from `start` to `end` over `duration` seconds, then lifts them.
  public func drag(from start: Point, to end: Point, duration: Double, fingers: Int = 1) {
    let starts = Self.row(fingers, around: start)
    let down = down(starts)
    animate(down, duration: duration) { i, t in
      Point(x: starts[i].x + (end.x - start.x) * t, y: starts[i].y + (end.y - start.y) * t)
    }
    up(down)
  }

  /// Two fingers on a horizontal line through `center`, `fromDistance` apart, spread (or closed) to
  /// `toDistance` over `duration` seconds, then lifted. The scale is `toDistance / fromDistance`.
  public func pinch(center: Point, fromDistance: Double, toDistance: Double, duration: Double) {
    let down = down([
      Point(x: center.x - fromDistance / 2, y: center.y), Point(x: center.x + fromDistance / 2, y: center.y),
    ])
    animate(down, duration: duration) { i, t in
      let d = fromDistance + (toDistance - fromDistance) * t
      return Point(x: center.x + (i == 0 ? -d / 2 : d / 2), y: center.y)
    }
    up(down)
  }

  /// Two fingers opposite each other on a circle of `radius` around `center`, turned from
  /// `fromAngle` to `toAngle` (radians, clockwise on screen, 0 along +x) over `duration` seconds,
  /// then lifted.
  public func rotate(center: Point, radius: Double, fromAngle: Double, toAngle: Double, duration: Double) {
    func position(_ i: Int, _ angle: Double) -> Point {
      let a = angle + (i == 0 ? 0 : Double.pi)
      return Point(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
    }
    let down = down([position(0, fromAngle), position(1, fromAngle)])
    animate(down, duration: duration) { i, t in position(i, fromAngle + (toAngle - fromAngle) * t) }
    up(down)
  }

  // MARK: Encoding

  private func deviceX(_ x: Double) -> Int32 { deviceUnits(x / windowWidth) }
  private func deviceY(_ y: Double) -> Int32 { deviceUnits(y / windowHeight) }

  private func deviceUnits(_ normalized: Double) -> Int32 { SyntheticTouchscreen.units(normalized) }

  private func selectSlot(_ slot: Int) {
    if lastSlot != Int32(slot) {
      emit(EV.abs, ABS.mtSlot, Int32(slot))
      lastSlot = Int32(slot)
    }
  }

  private func endFrame() {
    // The single-touch axes follow the lowest slot down, as kernel drivers' pointer emulation.
    if let first = fingersDown.first, let p = slotPositions[first] {
      emit(EV.abs, ABS.x, deviceX(p.x))
      emit(EV.abs, ABS.y, deviceY(p.y))
    }
    emit(EV.syn, SYN.report, 0)
  }

  private func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
    events.append(
      InputEvent(
        time: Timestamp(microseconds: Int64((time * 1_000_000).rounded())), type: type, code: code, value: value))
  }
}
