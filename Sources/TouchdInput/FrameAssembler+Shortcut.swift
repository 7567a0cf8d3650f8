// FrameAssembler: what the forwarding shortcut (ForwardShortcut.swift) reads of a protocol B assembler.

import Foundation

extension FrameAssembler {
  /// A raw position on an axis starting at `minimum` and `range` units long, normalized to 0...1 (a
  /// value outside the range is the screen's edge). ``ForwardShortcut`` maps positions with the
  /// same expression, so its frames are the pipeline's to the unit.
  @inline(__always)
  static func normalized(_ value: Int32, minimum: Double, range: Double) -> Double {
    clamp((Double(value) - minimum) / range)
  }

  /// What ``ForwardShortcut/arm(assembler:encoder:axes:mapping:calibration:deadline:)`` needs of a
  /// protocol B assembler between frames; nil for another protocol, during a resync or while a
  /// `SYN_DROPPED`'s frame is discarded.
  var shortcutState: (slotCount: Int, currentSlot: Int, x: (Double, Double), y: (Double, Double))? {
    guard mode == .slots, !syncing, !discarding else { return nil }
    return (slotCount, currentSlot, (xMin, xRange), (yMin, yRange))
  }

  /// Calls `body` with each slot holding a live touch: its index, touch, raw position, and whether
  /// the slot is settled (nothing pending for the next frame: no begin, end, palm or unread change).
  func forEachLiveSlot(_ body: (_ slot: Int, _ touch: TouchID, _ x: Int32, _ y: Int32, _ settled: Bool) -> Void) {
    guard mode == .slots else { return }
    for i in 0..<usedSlots {
      let slot = slots + i
      guard slot.pointee.status == .live else { continue }
      let settled =
        !slot.pointee.pendingBegin && !slot.pointee.cancelPending && !slot.pointee.dirty
        && slot.pointee.endedTouch == 0 && !slot.pointee.trackingIDUnknown && slot.pointee.toolType != MTTool.palm
      body(i, TouchID(rawValue: slot.pointee.touch), slot.pointee.x, slot.pointee.y, settled)
    }
  }
}
