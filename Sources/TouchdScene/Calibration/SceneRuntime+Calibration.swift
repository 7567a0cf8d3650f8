import TouchDelivery
import TouchdInput

/// Why a calibration could not start or did not finish.
public struct CalibrationError: Error, Hashable, Sendable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

extension SceneRuntime {
  /// The window a calibration collects touches on, nil when none runs.
  public var calibratingWindow: Int? { calibration?.window }

  /// Starts collecting the next touch on each target of window `id` (window points, 3 to 9 of
  /// them, inside the window, not all on one line) instead of delivering the window's touches:
  /// its touches down are cancelled, and until the last target's touch lifts no touch of the
  /// window reaches a view. `collected` is called as each target's touch lifts (its index from 0,
  /// and the touch, device-normalized); `completion` once, with the fit (``CalibrationFit``) or
  /// why there is none: the touched points on one line, `timeout` seconds passed, or
  /// ``cancelCalibration(_:)``. One calibration runs at a time.
  public func calibrate(
    window id: String, targets: [Scene.Point], timeout: Double,
    collected: @escaping (Int, Scene.Point) -> Void,
    completion: @escaping (Result<CalibrationFit, CalibrationError>) -> Void
  ) throws(CalibrationError) {
    let index: Int
    do {
      index = try windowIndex(named: id)
    } catch {
      throw CalibrationError(error.description)
    }
    if let running = calibration {
      throw CalibrationError(
        "a calibration of window '\(scene.windows[running.window].id)' is in progress; one runs at a time")
    }
    guard CalibrateCommand.targetCounts.contains(targets.count) else {
      throw CalibrationError("a calibration takes 3 to 9 targets, got \(targets.count)")
    }
    guard timeout > 0, timeout.isFinite else { throw CalibrationError("'timeout' must be above 0 seconds") }
    let size = scene.windows[index].size
    for (i, target) in targets.enumerated()
    where !(0...size.width).contains(target.x) || !(0...size.height).contains(target.y) {
      throw CalibrationError(
        "target \(i + 1) (\(JSONFormat.number(target.x)), \(JSONFormat.number(target.y))) is outside window '\(id)' "
          + "(\(JSONFormat.number(size.width)) × \(JSONFormat.number(size.height)) points)")
    }
    // Targets on one line cannot fix a matrix: the same test as the fit's, on the targets themselves.
    let identity = ScreenMapping(width: size.width, height: size.height)
    let asTouches = targets.map {
      CalibrationFit.Sample(target: $0, touched: Scene.Point(x: $0.x / size.width, y: $0.y / size.height))
    }
    do {
      _ = try CalibrationFit.fit(asTouches, mapping: identity)
    } catch {
      throw CalibrationError("the targets lie on one line: place at least 3 of them as a triangle (corners)")
    }
    application.cancelTouches(in: windows[index], reason: "a calibration of window '\(id)' began")
    let session = CalibrationSession(window: index, targets: targets) { [weak self] target, point in
      collected(target, point)
      self?.finishCalibrationIfComplete()
    }
    calibrationCompletion = completion
    session.timer = application.clock.schedule(at: application.clock.now + timeout) { [weak self] in
      guard let self, let calibration = self.calibration, calibration === session else { return }
      self.endCalibration(
        .failure(
          CalibrationError(
            "calibration timed out after \(JSONFormat.number(timeout)) s: \(session.samples.count) of "
              + "\(targets.count) targets touched")))
    }
    calibration = session
  }

  /// Ends a running calibration with `reason` as its error (a reload, a changed window).
  public func cancelCalibration(_ reason: String) {
    guard calibration != nil else { return }
    endCalibration(.failure(CalibrationError("calibration cancelled: \(reason)")))
  }

  /// Hands a frame of window `index` to the calibration when it collects that window's touches;
  /// returns whether it took the frame.
  func calibrationTakes(_ frame: TouchFrame, inWindow index: Int) -> Bool {
    guard let session = calibration, session.window == index else { return false }
    session.consume(frame)
    return true
  }

  private func finishCalibrationIfComplete() {
    guard let session = calibration, session.isComplete else { return }
    do throws(CalibrationFit.Failure) {
      endCalibration(.success(try CalibrationFit.fit(session.samples, mapping: mapping(forWindow: session.window))))
    } catch {
      endCalibration(.failure(CalibrationError(error.description)))
    }
  }

  private func endCalibration(_ result: Result<CalibrationFit, CalibrationError>) {
    calibration?.timer?.cancel()
    calibration = nil
    let completion = calibrationCompletion
    calibrationCompletion = nil
    completion?(result)
  }
}
