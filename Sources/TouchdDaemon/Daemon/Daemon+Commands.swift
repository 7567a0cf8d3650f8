import Dispatch
import TouchdScene

/// Client commands (``CommandHandler``), carried out on the pipeline queue: `update`, `reload` and
/// `calibrate` here, the rest by ``WireProtocol/execute(_:runtime:status:metrics:pushScene:)``; and the
/// server's calls when a client disconnects or its subscriptions change.
extension Daemon {
  public func handle(
    _ command: ClientCommand, from client: ClientInfo, server serverCounters: ServerCounters,
    reply: @escaping @Sendable (CommandResult) -> Void
  ) {
    queue.async { [unowned self] in
      // A command may hide a view, change a window's mapping or the scene: the next frames go
      // through the pipeline until one has been delivered.
      settleInput()
      if case .calibrate(let request) = command.request {
        calibrate(request, client: client, reply: reply)
      } else if case .scene(.update(let update)) = command.request {
        self.update(update, client: client, reply: reply)
      } else if case .reload = command.request {
        // Answered once the file is read (off this queue) and its scene installed or refused.
        reload(reason: "reload command") { outcome in
          switch outcome {
          case .installed: reply(.ok(fieldsJSON: ""))
          case .rejected(let error): reply(.error(error.message(prefix: "scene rejected, the old scene stays: ")))
          case .superseded: reply(.error(ReloadOutcome.supersededMessage))
          }
        }
      } else {
        reply(execute(command, client: client, serverCounters: serverCounters))
      }
    }
  }

  /// Carries out an `update`: the scene as changed is edited and validated on a queue of its own
  /// (``SceneUpdate/prepare(on:)``: tens of milliseconds for a large scene, which the touch pipeline
  /// does not wait for), then made on the pipeline's queue (``SceneRuntime/commit(_:)``) if the
  /// scene is still the one it was prepared on; else it is prepared again on the new one.
  private func update(
    _ update: SceneUpdate, client: ClientInfo, reply: @escaping @Sendable (CommandResult) -> Void
  ) {
    dispatchPrecondition(condition: .onQueue(queue))
    guard let document = runtime.document else {
      return reply(.error(SceneRuntimeError.noDocument.description))
    }
    let base = (ObjectIdentifier(runtime), runtime.documentVersion)
    DispatchQueue.global(qos: .userInitiated).async { [unowned self] in
      let prepared = Result { () throws(SceneRuntimeError) in try update.prepare(on: document) }
      queue.async { [unowned self] in
        settleInput()
        guard (ObjectIdentifier(runtime), runtime.documentVersion) == base else {
          // Another client's update, a push or a reload came first: prepare on the scene as it is.
          return self.update(update, client: client, reply: reply)
        }
        switch prepared {
        case .failure(let error):
          reply(.error(error.description))
        case .success(let prepared):
          let change = SceneChangeReply.updated(runtime.commit(prepared))
          announce(change)
          logger.info(
            "scene updated by a client",
            metadata: [
              "client": "\(client)", "op": "\(update.operation.rawValue)", "\(update.target.rawValue)": "\(update.id)",
            ])
          reply(.changed(change))
        }
      }
    }
  }

  /// Starts a calibration (``SceneRuntime/calibrate(window:targets:timeout:collected:completion:)``):
  /// every client gets a `calibration` notice as each target's touch lifts, and the requesting
  /// client the fit as the reply once the last one has, or the error.
  private func calibrate(
    _ request: CalibrateCommand, client: ClientInfo, reply: @escaping @Sendable (CommandResult) -> Void
  ) {
    dispatchPrecondition(condition: .onQueue(queue))
    do {
      try runtime.calibrate(
        window: request.window, targets: request.targets, timeout: request.waitSeconds,
        collected: { [unowned self] index, point in
          let notice = CalibrationMessage(
            window: request.window, target: index + 1, targets: request.targets.count, at: request.targets[index],
            touched: point)
          server.publish(OutboundMessage(line: notice.jsonLine, type: "calibration"))
        },
        completion: { [unowned self] result in
          calibrationClient = nil
          switch result {
          case .success(let fit):
            logger.notice(
              "calibration done",
              metadata: [
                "window": "\(request.window)", "matrix": "\(fit.matrix)", "maxError": "\(fit.maxError)",
              ])
            reply(.ok(fieldsJSON: calibrationReply(request, fit).fieldsJSON))
          case .failure(let error):
            logger.notice("calibration failed", metadata: ["window": "\(request.window)", "error": "\(error)"])
            reply(.error(error.description))
          }
        })
      calibrationDevice = nil
      calibrationClient = client.number
      logger.notice(
        "calibration began: the window's touches go to it until its last target is touched",
        metadata: ["window": "\(request.window)", "targets": "\(request.targets.count)"])
    } catch {
      reply(.error(error.description))
    }
  }

  /// A client that began a calibration and went away ends it: the window's touches would otherwise
  /// reach no view until its time-out.
  public func clientDisconnected(_ client: ClientInfo) {
    queue.async { [unowned self] in
      settleInput()
      guard calibrationClient == client.number else { return }
      runtime.cancelCalibration("\(client) that asked for it disconnected")
    }
  }

  /// A replay held for a subscriber (`--wait-for-subscriber`) starts with the first `subscribe`.
  public func clientSubscribed(_ client: ClientInfo) {
    queue.async { [unowned self] in
      settleInput()
      guard clock.isHeld else { return }
      logger.info(
        "a client subscribed: the replay starts", metadata: ["client": "\(client)", "delay": "\(options.replayDelay)"])
      clock.release()
    }
  }

  /// The fields of a successful `calibrate` reply (docs/protocol.md): matrices to a millionth,
  /// distances and landing points to a hundredth of a point (CalibrationFit's precisions).
  private func calibrationReply(_ request: CalibrateCommand, _ fit: CalibrationFit) -> CalibrateReply {
    func matrix(_ values: [Double]) -> [Double] { values.map { ($0 * 1e6).rounded() / 1e6 } }
    func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    let points = zip(request.targets.indices, request.targets).map { i, target in
      CalibrateReply.Point(
        at: target, landed: WirePoint(x: hundredths(fit.landed[i].x), y: hundredths(fit.landed[i].y)),
        error: hundredths(fit.errors[i]))
    }
    // A matrix for a udev rule: the device's own LIBINPUT_CALIBRATION_MATRIX, if any, then the fit.
    let device = calibrationDevice
    let first = (device?.calibration ?? .identity).values
    return CalibrateReply(
      window: request.window, matrix: matrix(fit.matrix), rmsError: hundredths(fit.rmsError),
      maxError: hundredths(fit.maxError), warning: fit.warning, points: points,
      device: device.map { CalibrateReply.Device(path: $0.path, name: $0.name) },
      udevMatrix: matrix(CalibrationFit.compose(fit.matrix, after: first)))
  }

  /// Traces while a client subscribes to `trace` (and not otherwise: tracing costs time), and
  /// encodes only the types some client subscribes to. Called on the server's event loop before the
  /// `subscribe` reply is written, so the next frame's messages are encoded for the new subscriber.
  public func subscribedTypesChanged(_ types: Set<String>) {
    subscribedTypes.withLockedValue { $0 = types }
    let wanted = types.contains("trace")
    queue.async { [unowned self] in
      guard wanted != tracing else { return }
      tracing = wanted
      runtime?.isTracing = wanted
      logger.info(wanted ? "tracing: a client subscribed to trace messages" : "tracing off: no trace subscriber")
    }
  }

  /// Makes the touches entries (`coalesced`, `predicted`) some touches subscriber asks for, and
  /// only those: while none does, no frame is recorded for them (SceneRuntime's ``SceneRuntime/touchesEntries``).
  public func touchesEntriesChanged(_ entries: TouchesMessage.Entries) {
    queue.async { [unowned self] in
      guard entries != touchesEntries else { return }
      touchesEntries = entries
      runtime?.touchesEntries = entries
    }
  }

  private func execute(_ command: ClientCommand, client: ClientInfo, serverCounters: ServerCounters) -> CommandResult {
    dispatchPrecondition(condition: .onQueue(queue))
    // The protocol fuzz target runs the same function against its own runtime.
    let result = WireProtocol.execute(
      command.request, runtime: runtime, status: { status(serverCounters).fieldsJSON },
      metrics: { metricsText(serverCounters) },
      pushScene: { pushed in
        // Parsed and validated on the server's event loop already: only the objects are built here.
        install(pushed, source: .client)
        counters.scenePushes += 1
        let counts = pushed.scene.counts
        logger.notice(
          "scene replaced by a client's scene command",
          metadata: [
            "client": "\(client)", "windows": "\(counts.windows)", "views": "\(counts.views)",
            "recognizers": "\(counts.recognizers)",
          ])
        return .ok(
          fieldsJSON: SceneReply(windows: windowInfos(), views: counts.views, recognizers: counts.recognizers)
            .fieldsJSON)
      })
    if case .changed(let change) = result {
      announce(change)
      if case .window(let window) = change {
        logger.notice(
          "window changed by a client's set command",
          metadata: ["window": "\(window.window)", "now": "\(window.fieldsJSON)"])
      }
    }
    return result
  }

  /// A change every client hears of (`updated`, `windowChanged`): later clients' hello counts
  /// the scene as changed, and connected ones get the notice.
  private func announce(_ change: SceneChangeReply) {
    guard let notice = change.noticeJSONLine else { return }
    server.setHello(hello().jsonLine, notice: notice)
  }
}
