import Dispatch
import TouchdScene

/// Client commands (``CommandHandler``), carried out on the pipeline queue: `update` and
/// `calibrate` here, the rest by ``WireProtocol/execute(_:runtime:status:replaceScene:)``; and the
/// server's calls when a client disconnects or its subscriptions change.
extension Daemon {
  public func handle(
    _ command: ClientCommand, from client: ClientInfo, server serverCounters: ServerCounters,
    reply: @escaping @Sendable (CommandResult) -> Void
  ) {
    queue.async { [unowned self] in
      if case .calibrate(let request) = command.request {
        calibrate(request, client: client, reply: reply)
      } else if case .scene(.update(let update)) = command.request {
        self.update(update, client: client, reply: reply)
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
        guard (ObjectIdentifier(runtime), runtime.documentVersion) == base else {
          // Another client's update, a push or a reload came first: prepare on the scene as it is.
          return self.update(update, client: client, reply: reply)
        }
        switch prepared {
        case .failure(let error):
          reply(.error(error.description))
        case .success(let prepared):
          let fields = runtime.commit(prepared)
          // Later clients' hello counts the scene as changed; every client hears of the change.
          server.setHello(helloLine(), notice: #"{"type":"updated",\#(fields)}"#)
          logger.info(
            "scene updated by a client",
            metadata: [
              "client": "\(client)", "op": "\(update.operation.rawValue)", "\(update.target.rawValue)": "\(update.id)",
            ])
          reply(.ok(fieldsJSON: fields))
        }
      }
    }
  }

  /// Starts a calibration (``SceneRuntime/calibrate(window:targets:timeout:collected:completion:)``):
  /// every client gets a `calibration` notice as each target's touch lifts, and the requesting
  /// client the fit as the reply once the last one has, or the error.
  private func calibrate(
    _ request: CalibrateRequest, client: ClientInfo, reply: @escaping @Sendable (CommandResult) -> Void
  ) {
    dispatchPrecondition(condition: .onQueue(queue))
    do {
      try runtime.calibrate(
        window: request.window, targets: request.targets, timeout: request.timeout,
        collected: { [unowned self] index, point in
          let target = request.targets[index]
          let line =
            #"{"type":"calibration","window":\#(WireProtocol.quote(request.window)),"target":\#(index + 1),"#
            + #""targets":\#(request.targets.count),"at":\#(Self.pointJSON(target)),"touched":\#(Self.pointJSON(point))}"#
          server.publish(OutboundMessage(line: line, type: "calibration"))
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
            reply(.ok(fieldsJSON: calibrationReply(request, fit)))
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
      guard calibrationClient == client.number else { return }
      runtime.cancelCalibration("\(client) that asked for it disconnected")
    }
  }

  /// A replay held for a subscriber (`--wait-for-subscriber`) starts with the first `subscribe`.
  public func clientSubscribed(_ client: ClientInfo) {
    queue.async { [unowned self] in
      guard clock.isHeld else { return }
      logger.info(
        "a client subscribed: the replay starts", metadata: ["client": "\(client)", "delay": "\(options.replayDelay)"])
      clock.release()
    }
  }

  private static func pointJSON(_ p: Scene.Point) -> String {
    #"{"x":\#(JSONFormat.number(p.x)),"y":\#(JSONFormat.number(p.y))}"#
  }

  /// The fields of a successful `calibrate` reply (docs/protocol.md).
  private func calibrationReply(_ request: CalibrateRequest, _ fit: CalibrationFit) -> String {
    func numbers(_ values: [Double]) -> String { "[" + CalibrationFit.numbers(values).joined(separator: ",") + "]" }
    let rounded = CalibrationFit.points
    let points = zip(request.targets.indices, request.targets).map { i, target in
      #"{"at":\#(Self.pointJSON(target)),"landed":{"x":\#(rounded(fit.landed[i].x)),"y":\#(rounded(fit.landed[i].y))},"#
        + #""error":\#(rounded(fit.errors[i]))}"#
    }
    // A matrix for a udev rule: the device's own LIBINPUT_CALIBRATION_MATRIX, if any, then the fit.
    let device = calibrationDevice
    let first = (device?.calibration ?? .identity).values
    let deviceJSON =
      device.map { #"{"path":\#(WireProtocol.quote($0.path)),"name":\#(WireProtocol.quote($0.name))}"# } ?? "null"
    let udevMatrix = CalibrationFit.compose(fit.matrix, after: first)
    return #""window":\#(WireProtocol.quote(request.window)),"matrix":\#(numbers(fit.matrix)),"#
      + #""rmsError":\#(rounded(fit.rmsError)),"maxError":\#(rounded(fit.maxError)),"#
      + #""warning":\#(fit.warning.map(WireProtocol.quote) ?? "null"),"points":[\#(points.joined(separator: ","))],"#
      + #""device":\#(deviceJSON),"udevMatrix":\#(numbers(udevMatrix))"#
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

  private func execute(_ command: ClientCommand, client: ClientInfo, serverCounters: ServerCounters) -> CommandResult {
    dispatchPrecondition(condition: .onQueue(queue))
    // The protocol fuzz target runs the same function against its own runtime.
    let result = WireProtocol.execute(
      command.request, runtime: runtime, status: { statusJSON(serverCounters) },
      replaceScene: { pushed in
        guard let pushed else {
          switch reload(reason: "reload command") {
          case .success: return .ok(fieldsJSON: "")
          case .failure(let error):
            return .error(error.message(prefix: "scene rejected, the old scene stays: "))
          }
        }
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
          fieldsJSON: #""windows":\#(windowsJSON()),"views":\#(counts.views),"recognizers":\#(counts.recognizers)"#)
      })
    if case .scene(.setWindow(let id, _)) = command.request, case .ok(let fields) = result {
      // New clients' hello has the window's new size; every client hears of the change.
      server.setHello(helloLine(), notice: #"{"type":"windowChanged",\#(fields)}"#)
      logger.notice("window changed by a client's set command", metadata: ["window": "\(id)", "now": "\(fields)"])
    }
    return result
  }
}
