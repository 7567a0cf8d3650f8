import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Issue #43: a touch at an axis's minimum or maximum (the panel's first or last row or column)
/// lands inside the window, on the view at that screen edge, on every kind of device and at every
/// rotation. Before, the maximum mapped to exactly the window's width or height, outside the
/// half-open window, and hit nothing (and, mirrored by a rotation, so did the minimum).
@Suite("Axis edges")
struct AxisEdgeTests {
  /// A 1000 x 800 window rotated `degrees`: a 1 pt view along each edge, a 1 pt square in each
  /// corner in front of them, `middle` behind them all; every view hears touches.
  static func scene(_ degrees: Int) -> String {
    func view(_ id: String, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> String {
      "        - {id: \(id), frame: {x: \(x), y: \(y), width: \(width), height: \(height)}, touches: true}"
    }
    let views = [
      view("middle", 0, 0, 1000, 800),
      view("top", 0, 0, 1000, 1), view("bottom", 0, 799, 1000, 1),
      view("left", 0, 0, 1, 800), view("right", 999, 0, 1, 800),
      view("topLeft", 0, 0, 1, 1), view("topRight", 999, 0, 1, 1),
      view("bottomLeft", 0, 799, 1, 1), view("bottomRight", 999, 799, 1, 1),
    ]
    return """
      version: 1
      windows:
        - id: w
          size: {width: 1000, height: 800}
          rotation: \(degrees)
          views:
      \(views.joined(separator: "\n"))
      """
  }

  /// Where a device fraction (0, 1/2 or 1 on each axis) is in the window's unit square at
  /// `rotation`, as docs/scene.md describes it (clockwise; at 90° the device's top edge is along
  /// the window's right edge).
  static func window(_ rotation: ScreenRotation, _ x: Double, _ y: Double) -> (x: Double, y: Double) {
    switch rotation {
    case .none: (x, y)
    case .clockwise90: (1 - y, x)
    case .clockwise180: (1 - x, 1 - y)
    case .clockwise270: (y, 1 - x)
    }
  }

  /// The view at a point of the window's unit square on its edge: a corner's or an edge's.
  static func edgeView(_ x: Double, _ y: Double) -> String {
    let column = x == 0 ? "left" : x == 1 ? "right" : ""
    let row = y == 0 ? "top" : y == 1 ? "bottom" : ""
    if row.isEmpty { return column }
    if column.isEmpty { return row }
    return row + column.prefix(1).uppercased() + column.dropFirst()
  }

  /// The four corners and the four edge midpoints, as device fractions.
  static let extremes: [(x: Double, y: Double)] = [
    (0, 0), (0.5, 0), (1, 0), (1, 0.5), (1, 1), (0.5, 1), (0, 1), (0, 0.5),
  ]

  /// The unit of ``SyntheticTouchscreen``'s 0...4095 axis at fraction 0, 1/2 or 1: the minimum,
  /// the middle, the maximum.
  static func unit(_ fraction: Double) -> Int32 {
    fraction == 0 ? 0 : fraction == 1 ? SyntheticTouchscreen.axisMaximum : (SyntheticTouchscreen.axisMaximum + 1) / 2
  }

  /// A tap at device units (`x`, `y`) at `time` on the protocol B panel: down, then up 50 ms later.
  static func tap(_ x: Int32, _ y: Int32, at time: Double, id: Int32) -> [InputEvent] {
    func at(_ t: Double, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
      InputEvent(time: Timestamp(microseconds: Int64((t * 1_000_000).rounded())), type: type, code: code, value: value)
    }
    return [
      at(time, EV.abs, ABS.mtTrackingID, id), at(time, EV.abs, ABS.mtPositionX, x),
      at(time, EV.abs, ABS.mtPositionY, y), at(time, EV.abs, ABS.x, x), at(time, EV.abs, ABS.y, y),
      at(time, EV.key, BTN.touch, 1), at(time, EV.syn, SYN.report, 0),
      at(time + 0.05, EV.abs, ABS.mtTrackingID, -1), at(time + 0.05, EV.key, BTN.touch, 0),
      at(time + 0.05, EV.syn, SYN.report, 0),
    ]
  }

  @Test(
    "a touch at each axis extreme lands inside the window, on the view at that edge, on every kind and at every rotation",
    arguments: SyntheticDeviceKind.allCases, ScreenRotation.allCases)
  func extremesHitTheEdgeViews(kind: SyntheticDeviceKind, rotation: ScreenRotation) throws {
    var events: [InputEvent] = []
    for (i, point) in Self.extremes.enumerated() {
      events += Self.tap(Self.unit(point.x), Self.unit(point.y), at: 1 + Double(i) * 0.2, id: Int32(i))
    }
    let recording = kind.encode(
      Recording(description: SyntheticTouchscreen.description, events: events, source: "extremes"))
    // The kind's recording carries the extreme units themselves.
    let xs = Set(
      recording.events.filter { $0.type == EV.abs && ($0.code == ABS.x || $0.code == ABS.mtPositionX) }
        .map(\.value))
    #expect(xs == [0, 2048, 4095])
    let scene = try Scene.parse(Self.scene(rotation.rawValue))
    let touches = try ScenePlayer.replay(recording, scene: scene).compactMap { message -> TouchesMessage? in
      if case .touches(let t) = message { t } else { nil }
    }
    #expect(touches.count == 2 * Self.extremes.count, "\(kind) \(rotation): \(touches.map(\.view))")
    for (i, point) in Self.extremes.enumerated() {
      let ideal = Self.window(rotation, point.x, point.y)
      let expected = Self.edgeView(ideal.x, ideal.y)
      // Each tap is a began and an ended message, in order.
      let messages = Array(touches.dropFirst(2 * i).prefix(2))
      #expect(messages.map(\.phase) == ["began", "ended"], "\(kind) \(rotation) \(point)")
      for message in messages {
        #expect(message.view == expected, "\(kind) \(rotation) device \(point): \(message.view), not \(expected)")
        for touch in message.touches {
          #expect(touch.view == expected)
          // Inside the half-open window, half a device unit (under 0.125 pt) from the edge.
          #expect(touch.x >= 0 && touch.x < 1000 && touch.y >= 0 && touch.y < 800)
          #expect(abs(touch.x - ideal.x * 1000) < 0.125, "\(kind) \(rotation) \(point): x \(touch.x)")
          #expect(abs(touch.y - ideal.y * 800) < 0.125, "\(kind) \(rotation) \(point): y \(touch.y)")
        }
      }
    }
  }
}
