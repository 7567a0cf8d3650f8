// FrameAssembler: multitouch protocol A (`SYN_MT_REPORT`): anonymous contacts matched frame to frame.

import Foundation

extension FrameAssembler {
  struct Report {
    var x: Int32 = 0
    var y: Int32 = 0
    var major: Int32 = 0
    var pressure: Int32 = 0
    var trackingID: Int32 = -1
    var toolType: Int32 = 0
  }

  struct Track {
    var touch: UInt64 = 0
    var ignored = false
    var trackingID: Int32 = -1
    var x: Int32 = 0
    var y: Int32 = 0
    var major: Int32 = 0
    var pressure: Int32 = 0
    var last = Position()
  }

  @inline(__always)
  func processContactEvent(_ event: InputEvent) {
    if event.type == EV.key {
      if event.code == BTN.touch && event.value == 0 { touchReleased = true }
      return
    }
    guard event.type == EV.abs else { return }
    switch event.code {
    case ABS.mtPositionX: current.x = event.value
    case ABS.mtPositionY: current.y = event.value
    case ABS.mtTouchMajor: current.major = event.value
    case ABS.mtPressure: current.pressure = event.value
    case ABS.mtTrackingID: current.trackingID = event.value
    case ABS.mtToolType: current.toolType = event.value
    default:
      if event.code < ABS.mtTouchMajor || event.code > ABS.mtToolY { return }
    }
    currentHasData = true
  }

  func finishReport() {
    if currentHasData {
      if (current.trackingID >= 0 || !reportsHaveIDs) && reports.count < Self.maximumReports {
        reports.append(current)
      }
      sawContactData = true
    }
    currentHasData = false
    current.trackingID = -1
    current.toolType = MTTool.finger
  }

  /// Contacts of protocol A devices whose reports carry `ABS_MT_TRACKING_ID`: a report without one
  /// (-1) is a lifted contact on such devices.
  private var reportsHaveIDs: Bool { device.has(type: EV.abs, code: ABS.mtTrackingID) }

  func assembleContacts() -> Bool {
    if currentHasData { finishReport() }
    if touchReleased { reports.removeAll(keepingCapacity: true) }
    touchReleased = false
    sawContactData = false
    var changed = false
    nextTracks.removeAll(keepingCapacity: true)
    matchedReport.removeAll(keepingCapacity: true)
    for _ in tracks { matchedReport.append(-1) }
    var reportTaken = 0  // bit set for up to 64 reports; more are matched by a linear scan
    let byID = reportsHaveIDs
    if byID {
      for t in tracks.indices {
        for r in reports.indices where reports[r].trackingID == tracks[t].trackingID {
          if !isTaken(r, reportTaken) {
            matchedReport[t] = r
            markTaken(r, &reportTaken)
            break
          }
        }
      }
    } else {
      // Greedy: repeatedly pair the closest unmatched track and report.
      while true {
        var best = Double.infinity
        var bestT = -1
        var bestR = -1
        for t in tracks.indices where matchedReport[t] < 0 {
          for r in reports.indices where !isTaken(r, reportTaken) {
            let dx = Double(tracks[t].x) - Double(reports[r].x)
            let dy = Double(tracks[t].y) - Double(reports[r].y)
            let d = dx * dx + dy * dy
            if d < best {
              best = d
              bestT = t
              bestR = r
            }
          }
        }
        if bestT < 0 { break }
        matchedReport[bestT] = bestR
        markTaken(bestR, &reportTaken)
      }
    }
    for t in tracks.indices {
      var track = tracks[t]
      let r = matchedReport[t]
      if r < 0 {
        if !track.ignored {
          emit(track.touch, .ended, track.last)
          changed = true
        }
        continue
      }
      let report = reports[r]
      let moved =
        track.x != report.x || track.y != report.y || track.major != report.major
        || track.pressure != report.pressure
      track.x = report.x
      track.y = report.y
      track.major = report.major
      track.pressure = report.pressure
      if !track.ignored {
        if report.toolType == MTTool.palm {
          emit(track.touch, .cancelled, track.last)
          track.ignored = true
          changed = true
        } else {
          track.last = position(x: track.x, y: track.y, major: track.major, pressure: track.pressure)
          emit(track.touch, moved ? .moved : .stationary, track.last)
          if moved { changed = true }
        }
      }
      nextTracks.append(track)
    }
    for r in reports.indices where !isTaken(r, reportTaken) {
      let report = reports[r]
      var track = Track(
        trackingID: report.trackingID, x: report.x, y: report.y, major: report.major,
        pressure: report.pressure)
      if report.toolType == MTTool.palm {
        track.ignored = true
      } else {
        track.touch = ids.next().rawValue
        track.last = position(x: track.x, y: track.y, major: track.major, pressure: track.pressure)
        emit(track.touch, .began, track.last)
        changed = true
      }
      nextTracks.append(track)
    }
    swap(&tracks, &nextTracks)
    reports.removeAll(keepingCapacity: true)
    return changed
  }

  @inline(__always)
  private func isTaken(_ r: Int, _ bits: Int) -> Bool {
    if r < 64 { return bits & (1 << r) != 0 }
    return matchedReport.contains(r)
  }

  @inline(__always)
  private func markTaken(_ r: Int, _ bits: inout Int) {
    if r < 64 { bits |= 1 << r }
  }
}
