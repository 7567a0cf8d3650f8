// Signature pads: the views with `signature:` (docs/pens.md, "Signature capture"). Every kernel
// frame of a stroke is a point; a stroke is published when it ends; the signature is given and
// cleared on a client's request.
import TouchDelivery
import TouchdInput

/// The signature pads of a runtime and the strokes being drawn on them.
///
/// A touch that begins in a pad (its hit-test view the pad or inside it; with `ink: pen`, a
/// pencil touch) is a stroke: each frame of its touch, at the device's rate rather than delivery's
/// (UIKit's coalesced touches), adds a point in the pad's points with the frame's time and, for a
/// pen, its force and angles. Its lift ends the stroke, which is published as a `stroke` message
/// when its path is at least the pad's `minimumLength` and kept in the pad's signature; a cancelled
/// touch (a palm, the pen's panel rejecting a hand, the device gone) draws nothing. The pad's view
/// isolates its touches (``TouchDelivery/View/isolatesTouches``): no recognizer around it takes
/// a stroke.
final class SignatureCapture {
  struct Pad {
    weak var view: TouchDelivery.View?
    var window: String
    var penOnly: Bool
    var minimumLength: Double
    var strokes: [SignatureMessage.Stroke] = []
  }

  /// A stroke being drawn: a class, so that a frame's point is appended to the one array in place
  /// (a struct in the dictionary went through its modify accessor, which allocated per frame).
  private final class Live {
    let pad: String
    let touchType: String
    var points: [StrokePoint] = []
    var length = 0.0

    init(pad: String, touchType: String) {
      self.pad = pad
      self.touchType = touchType
      points.reserveCapacity(256)
    }

    func add(_ point: StrokePoint) {
      if let last = points.last {
        let (dx, dy) = (point.x - last.x, point.y - last.y)
        length += (dx * dx + dy * dy).squareRoot()
      }
      points.append(point)
    }
  }

  private(set) var pads: [String: Pad] = [:]
  private var live: [TouchID: Live] = [:]

  var isEmpty: Bool { pads.isEmpty }

  func add(_ spec: Scene.Signature, view: TouchDelivery.View, id: String, window: String) {
    view.isolatesTouches = true
    pads[id] = Pad(view: view, window: window, penOnly: spec.ink == "pen", minimumLength: spec.minimumLength)
  }

  /// The pad `view` is, or is inside; nil for none.
  private func pad(of view: TouchDelivery.View?) -> String? {
    var v = view
    while let current = v {
      if let id = current.identifier, let pad = pads[id], pad.view === current { return id }
      v = current.superview
    }
    return nil
  }

  /// Records a delivered frame (window points, `time` seconds): hands each stroke it ended to
  /// `ended`. A stroke's points grow in place (amortized: no allocation per frame).
  func record(_ frame: TouchFrame, at time: Double, application: Application, ended: (StrokeMessage.Parts) -> Void) {
    for contact in frame.contacts {
      if live[contact.id] == nil {
        guard contact.phase == .began, let touch = application.touch(withID: contact.id),
          let id = pad(of: touch.view), let pad = pads[id], !pad.penOnly || contact.pen != nil
        else { continue }
        live[contact.id] = Live(pad: id, touchType: contact.pen == nil ? "direct" : "pencil")
      }
      guard let stroke = live[contact.id], let view = pads[stroke.pad]?.view, contact.phase != .cancelled else {
        live[contact.id] = nil
        continue
      }
      let p = view.convert(Point(x: contact.x, y: contact.y), from: nil)
      let force = contact.pen == nil ? nil : (contact.force ?? 0) * TouchType.pencil.maximumPossibleForce
      let point = StrokePoint(
        x: p.x, y: p.y, time: time, force: force, altitudeAngle: contact.pen?.altitudeAngle,
        azimuthAngle: contact.pen?.azimuthAngle)
      stroke.add(point)
      guard contact.phase == .ended else { continue }
      live[contact.id] = nil
      guard var pad = pads[stroke.pad], stroke.length >= pad.minimumLength else { continue }
      let kept = SignatureMessage.Stroke(touchType: stroke.touchType, points: stroke.points)
      pad.strokes.append(kept)
      pads[stroke.pad] = pad
      ended(StrokeMessage.Parts(view: stroke.pad, window: pad.window, stroke: kept))
    }
  }

  /// Forgets pad `id`'s strokes; returns how many there were.
  func clear(_ id: String) -> Int {
    let count = pads[id]?.strokes.count ?? 0
    pads[id]?.strokes = []
    return count
  }
}

extension StrokeMessage {
  /// A stroke to publish: its pad, the pad's window and the stroke.
  struct Parts {
    var view: String
    var window: String
    var stroke: SignatureMessage.Stroke
  }
}

extension SceneRuntime {
  /// Records a delivered frame's strokes and publishes those it ended (a `stroke` message each).
  func captureStrokes(_ frame: TouchFrame) {
    guard !signatures.isEmpty else { return }
    signatures.record(frame, at: frame.time.seconds, application: application) { parts in
      sink(
        .stroke(
          StrokeMessage(
            seq: takeSeq(), view: parts.view, window: parts.window, time: frame.time.seconds,
            touchType: parts.stroke.touchType, points: parts.stroke.points)))
    }
  }

  /// `{"cmd":"signature","view":V,"do":"get"|"clear"}`: `get` publishes the pad's signature (a
  /// `signature` message) and replies with it; `clear` forgets its strokes.
  func signature(_ command: SignatureCommand) throws(SceneRuntimeError) -> SceneChangeReply {
    guard let pad = signatures.pads[command.view], pad.view != nil, viewsByID[command.view] === pad.view else {
      guard viewsByID[command.view] != nil else {
        throw .unknownView(command.view, suggestion: closestMatch(to: command.view, in: signatures.pads.keys.sorted()))
      }
      throw .invalidValue("view '\(command.view)' is not a signature view (it has no signature:)")
    }
    guard command.action == "get" else {
      return .signatureCleared(view: command.view, strokes: signatures.clear(command.view))
    }
    let points = pad.strokes.flatMap(\.points)
    var bounds: WireRect?
    if let first = points.first {
      var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
      for p in points {
        (minX, minY) = (min(minX, p.x), min(minY, p.y))
        (maxX, maxY) = (max(maxX, p.x), max(maxY, p.y))
      }
      bounds = WireRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
    let duration = (points.last?.time ?? 0) - (points.first?.time ?? 0)
    let message = SignatureMessage(
      seq: takeSeq(), view: command.view, window: pad.window, time: now, strokes: pad.strokes, bounds: bounds,
      duration: duration)
    sink(.signature(message))
    return .signature(message)
  }
}
