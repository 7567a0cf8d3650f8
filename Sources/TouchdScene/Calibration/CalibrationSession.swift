import TouchDelivery
import TouchdInput

/// A `calibrate` command in progress on one window: the window's touches go here instead of to its
/// views, one touch per target, in the targets' order.
///
/// A target's touch is the next contact that begins while no other is being collected; its
/// position is the median of its positions from touch-down to lift (a finger that rolls or slides
/// a little on arrival still gives the point it rested on, as tslib's `ts_calibrate` takes the
/// median of its samples). Other fingers, contacts already down when the session began, and a
/// contact that is cancelled (palm, SYN_DROPPED) count for nothing; after a cancelled one the same
/// target waits for the next touch.
final class CalibrationSession {
  /// The window's index.
  let window: Int
  /// The targets, window points.
  let targets: [Scene.Point]
  private(set) var samples: [CalibrationFit.Sample] = []
  private var current: (id: TouchID, xs: [Double], ys: [Double])?
  /// Called when a target's touch lifts: the target's index and the touch's device-normalized point.
  private let collected: (Int, Scene.Point) -> Void
  /// The time-out, cancelled when the session ends.
  var timer: ScheduledTimer?

  init(window: Int, targets: [Scene.Point], collected: @escaping (Int, Scene.Point) -> Void) {
    self.window = window
    self.targets = targets
    self.collected = collected
  }

  /// Whether every target has its touch.
  var isComplete: Bool { samples.count == targets.count }

  /// Takes one frame of the window's contacts (device-normalized, before the window's calibration).
  func consume(_ frame: TouchFrame) {
    for contact in frame.contacts {
      if let collecting = current, contact.id == collecting.id {
        switch contact.phase {
        case .began, .moved, .stationary:
          current?.xs.append(contact.x)
          current?.ys.append(contact.y)
        case .ended:
          let point = Scene.Point(
            x: Self.median(collecting.xs + [contact.x]), y: Self.median(collecting.ys + [contact.y]))
          current = nil
          let index = samples.count
          samples.append(CalibrationFit.Sample(target: targets[index], touched: point))
          collected(index, point)
        case .cancelled:
          current = nil
        }
      } else if contact.phase == .began, current == nil, !isComplete {
        current = (contact.id, [contact.x], [contact.y])
      }
    }
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
