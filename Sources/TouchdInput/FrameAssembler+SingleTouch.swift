// FrameAssembler: single-touch devices (`BTN_TOUCH`, `ABS_X`/`ABS_Y`).

import Foundation

extension FrameAssembler {
  struct Single {
    var x: Int32 = 0
    var y: Int32 = 0
    var pressure: Int32 = 0
    var down = false
    var status = Status.idle
    var touch: UInt64 = 0
    var dirty = false
    var last = Position()
  }

  @inline(__always)
  func processSingleEvent(_ event: InputEvent) {
    if event.type == EV.key {
      if event.code == BTN.touch { single.down = event.value != 0 }
      return
    }
    guard event.type == EV.abs else { return }
    switch event.code {
    case ABS.x:
      if single.x != event.value {
        single.x = event.value
        single.dirty = true
      }
    case ABS.y:
      if single.y != event.value {
        single.y = event.value
        single.dirty = true
      }
    case ABS.pressure:
      if single.pressure != event.value {
        single.pressure = event.value
        single.dirty = true
      }
    default:
      break
    }
  }

  func assembleSingle(endedPhase: TouchPhase) -> Bool {
    defer { single.dirty = false }
    switch single.status {
    case .idle:
      guard single.down else { return false }
      single.touch = ids.next().rawValue
      single.status = .live
      single.last = position(x: single.x, y: single.y, major: 0, pressure: single.pressure)
      emit(single.touch, .began, single.last)
      return true
    case .live:
      if !single.down {
        emit(single.touch, endedPhase, single.last)
        single.status = .idle
        single.touch = 0
        return true
      }
      if single.dirty {
        single.last = position(x: single.x, y: single.y, major: 0, pressure: single.pressure)
      }
      emit(single.touch, single.dirty ? .moved : .stationary, single.last)
      return single.dirty
    case .ignored:
      if !single.down { single.status = .idle }
      return false
    }
  }
}
