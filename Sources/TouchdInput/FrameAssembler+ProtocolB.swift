// FrameAssembler: multitouch protocol B (`ABS_MT_SLOT`): the slots' events and their frames.

import Foundation

extension FrameAssembler {
  struct Slot {
    var trackingID: Int32 = -1
    var x: Int32 = 0
    var y: Int32 = 0
    var major: Int32 = 0
    var pressure: Int32 = 0
    var toolType: Int32 = 0
    var status = Status.idle
    var touch: UInt64 = 0
    var pendingBegin = false
    var cancelPending = false
    var dirty = false
    /// After a recording's `SYN_DROPPED`: the next tracking id is taken whatever it is.
    var trackingIDUnknown = false
    var endedTouch: UInt64 = 0
    var last = Position()
  }

  @inline(__always)
  func processSlotEvent(_ event: InputEvent) {
    guard event.type == EV.abs else { return }
    let code = event.code
    let value = event.value
    if code == ABS.mtSlot {
      // The kernel's input core ignores an ABS_MT_SLOT outside the device's slots, negative ones
      // too, and the events after it go to the slot selected before (drivers/input/input.c,
      // `input_handle_abs_event`: `if (mt && *pval >= 0 && *pval < mt->num_slots) mt->slot =
      // *pval; return INPUT_IGNORE_EVENT`). A recording holding one replays as the same events
      // played into a uinput device would: live == replay. (libevdev and libinput would cap it to
      // the last slot, but live they never see one.)
      if value >= 0 && Int(value) < slotCount { currentSlot = Int(value) }
      return
    }
    guard code >= ABS.mtTouchMajor, code <= ABS.mtToolY, currentSlot >= 0 else { return }
    let slot = slots + currentSlot
    if currentSlot >= usedSlots { usedSlots = currentSlot + 1 }
    switch code {
    case ABS.mtPositionX:
      if slot.pointee.x != value {
        slot.pointee.x = value
        slot.pointee.dirty = true
      }
    case ABS.mtPositionY:
      if slot.pointee.y != value {
        slot.pointee.y = value
        slot.pointee.dirty = true
      }
    case ABS.mtTrackingID:
      if slot.pointee.trackingIDUnknown {
        // After a recording's SYN_DROPPED: the finger that was down is gone (its touch was
        // cancelled); any id is taken, and a new one is a new finger.
        slot.pointee.trackingIDUnknown = false
        lift(slot)
      } else if (value == -1) == (slot.pointee.trackingID == -1) {
        // libevdev's `sanitize_event` drops "invalid tracking IDs, they are only supposed to go from N
        // to -1 or from -1 to N. Never from -1 to -1, or N to M" ("received a double tracking ID"), so
        // a live reader never sees a second id without -1 between and the touch goes on; libinput
        // ignores one too ("driver sent multiple touch down for the same slot",
        // `fallback_flush_mt_down`).
        return
      } else if value < 0 {
        // N → -1 lifts. (A slot at -1 may take another negative value, which libevdev passes and
        // which begins nothing; only -1 leaves it again.)
        lift(slot)
      }
      slot.pointee.trackingID = value
      if value >= 0 { slot.pointee.pendingBegin = true }
    case ABS.mtTouchMajor:
      if slot.pointee.major != value {
        slot.pointee.major = value
        slot.pointee.dirty = true
      }
    case ABS.mtPressure:
      if slot.pointee.pressure != value {
        slot.pointee.pressure = value
        slot.pointee.dirty = true
      }
    case ABS.mtToolType:
      slot.pointee.toolType = value
      if value == MTTool.palm { slot.pointee.cancelPending = true }
    default:
      break
    }
  }

  /// The slot's contact lifted: a reported touch ends in this frame; an unreported one vanishes.
  @inline(__always)
  private func lift(_ slot: UnsafeMutablePointer<Slot>) {
    switch slot.pointee.status {
    case .live:
      if slot.pointee.endedTouch == 0 { slot.pointee.endedTouch = slot.pointee.touch }
      slot.pointee.touch = 0
    case .ignored, .idle:
      break
    }
    slot.pointee.status = .idle
    slot.pointee.pendingBegin = false
    slot.pointee.cancelPending = false
  }

  func assembleSlots(endedPhase: TouchPhase) -> Bool {
    var changed = false
    for i in 0..<usedSlots {
      let slot = slots + i
      if slot.pointee.endedTouch != 0 {
        emit(slot.pointee.endedTouch, endedPhase, slot.pointee.last)
        slot.pointee.endedTouch = 0
        changed = true
      }
      let palm = slot.pointee.cancelPending || slot.pointee.toolType == MTTool.palm
      if slot.pointee.pendingBegin {
        slot.pointee.pendingBegin = false
        if palm {
          slot.pointee.status = .ignored
        } else {
          slot.pointee.touch = ids.next().rawValue
          slot.pointee.status = .live
          slot.pointee.last = slotPosition(slot)
          emit(slot.pointee.touch, .began, slot.pointee.last)
          changed = true
        }
      } else if slot.pointee.status == .live {
        if palm {
          emit(slot.pointee.touch, .cancelled, slot.pointee.last)
          slot.pointee.status = .ignored
          slot.pointee.touch = 0
          changed = true
        } else if slot.pointee.dirty {
          slot.pointee.last = slotPosition(slot)
          emit(slot.pointee.touch, .moved, slot.pointee.last)
          changed = true
        } else {
          emit(slot.pointee.touch, .stationary, slot.pointee.last)
        }
      }
      slot.pointee.cancelPending = false
      slot.pointee.dirty = false
    }
    return changed
  }

  @inline(__always)
  private func slotPosition(_ slot: UnsafeMutablePointer<Slot>) -> Position {
    position(x: slot.pointee.x, y: slot.pointee.y, major: slot.pointee.major, pressure: slot.pointee.pressure)
  }
}
