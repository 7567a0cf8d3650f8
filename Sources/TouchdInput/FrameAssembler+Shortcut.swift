// FrameAssembler: what the forwarding shortcut (ForwardShortcut.swift) reads of a protocol B assembler.

import Foundation

extension FrameAssembler {
  /// What ``ForwardShortcut/arm(assembler:encoder:axes:mapping:calibration:deadline:)`` needs of a
  /// protocol B assembler between frames; nil for another protocol, during a resync or while a
  /// `SYN_DROPPED`'s frame is discarded.
  /// Positions are normalized with ``AbsInfo/fraction(_:minimum:maximum:)`` on the axes' minimum
  /// and maximum (`x`, `y`); the shortcut's C code repeats that expression, so its frames are the
  /// pipeline's to the unit.
  var shortcutState: (slotCount: Int, currentSlot: Int, x: (Double, Double), y: (Double, Double))? {
    guard mode == .slots, !syncing, !discarding else { return nil }
    return (slotCount, currentSlot, (xMin, xMax), (yMin, yMax))
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
