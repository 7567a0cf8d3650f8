import Dispatch
import TouchdInput
import TouchdScene

/// Frames: each frame delivered to the runtime at its time (live, replayed, or cancelling a
/// device's touches and keys), the latency of each stage of a live frame, and the messages a
/// frame makes handed to the server (in one batch for a live frame).
extension Daemon {
  /// Hands a message to the server (which never blocks): trace messages take the same path. A
  /// live frame's messages wait in ``outbound`` until its delivery returns, then go in one batch:
  /// one hop to the server's event loop and one flush per client per frame. A message of a type no
  /// client subscribes to is counted but never encoded (``subscribedTypes``).
  func publish(_ message: Message) {
    let type: String
    var action: String?
    let view: String?
    switch message {
    case .action(let a):
      counters.messages += 1
      counters.actions += 1
      metrics.countAction(a.action, gesture: a.gesture)
      (type, action, view) = ("action", a.action, a.view)
    case .touches(let t):
      counters.messages += 1
      (type, view) = ("touches", t.view)
      if t.coalesced != nil || t.predicted != nil {
        guard subscribedTypes.withLockedValue({ $0.contains(type) }) else { return }
        // One encoding for every subscriber: each gets the entries it asked for (OutboundMessage).
        let (line, coalesced, predicted) = t.jsonLineWithEntries
        return hand(OutboundMessage(line: line, type: type, view: view, coalesced: coalesced, predicted: predicted))
      }
    case .scroll(let m):
      counters.messages += 1
      (type, view) = ("scroll", m.view)
    case .control(let m):
      counters.messages += 1
      (type, view) = ("control", m.view)
    case .presses(let m):
      counters.messages += 1
      (type, view) = ("presses", m.view)
    case .idle(let m):
      counters.messages += 1
      metrics.countIdle(m.isIdle)
      (type, view) = ("idle", nil)
    case .accessibility(let m):
      counters.messages += 1
      (type, view) = ("accessibility", m.view)
    case .stroke(let m):
      counters.messages += 1
      (type, view) = ("stroke", m.view)
    case .signature(let m):
      counters.messages += 1
      (type, view) = ("signature", m.view)
    case .trace(let t):
      counters.traces += 1
      (type, view) = ("trace", t.view)
    }
    guard subscribedTypes.withLockedValue({ $0.contains(type) }) else { return }
    hand(OutboundMessage(line: message.jsonLine, type: type, action: action, view: view))
  }

  /// Hands an encoded message on: into the live frame's batch, or to the server at once.
  private func hand(_ out: OutboundMessage) {
    if liveFrameTime != nil {
      frameEncoded = MonotonicClock.microseconds()
      outbound.append(out)
    } else {
      server.publish(out)
    }
  }

  /// Delivers one frame to the runtime at its time (``DispatchClock/handling(at:_:)``): due timers
  /// first, then the device's calibration, then the window's mapping (in the runtime). `source`:
  /// the live device, whose virtual touchscreen gets the frame's forwarded touches.
  func deliver(_ frame: TouchFrame, window: Int, calibration: CalibrationMatrix?, source: Int? = nil) {
    dispatchPrecondition(condition: .onQueue(queue))
    var frame = frame
    if let calibration {
      for i in frame.contacts.indices {
        (frame.contacts[i].x, frame.contacts[i].y) = calibration.apply(x: frame.contacts[i].x, y: frame.contacts[i].y)
      }
      if var pen = frame.pen {
        (pen.x, pen.y) = calibration.apply(x: pen.x, y: pen.y)
        frame.pen = pen
      }
    }
    clock.handling(at: frame.time.seconds) {
      counters.frames += 1
      counters.touchesBegan += frame.contacts.reduce(0) { $0 + ($1.phase == .began ? 1 : 0) }
      runtime.handle(frame, inWindow: window, source: source)
    }
  }

  /// Delivers one key frame to the runtime at its time: due timers first, as for touches.
  func deliver(_ frame: KeyFrame, window: Int, source: Int) {
    dispatchPrecondition(condition: .onQueue(queue))
    clock.handling(at: frame.time.seconds) {
      counters.keyFrames += 1
      runtime.handle(frame, inWindow: window, source: source)
    }
  }

  /// Delivers a live device's frame to the window that takes it, then hands its messages to the
  /// server in one batch. `wake` is when the input thread woke for it, if it came from a read the
  /// thread woke for: then each stage's latency is recorded.
  func deliver(_ frame: DeviceFrame, from live: LiveDevice, wake: Int64? = nil) {
    let kernel = frame.time.microseconds
    let assembled = MonotonicClock.microseconds()
    liveFrameTime = kernel
    frameEncoded = nil
    frameForwarded = nil
    // The frame may change what any device's next frame does (two devices may share a window):
    // every shortcut is disarmed, and this device's armed again once the frame is delivered.
    forwarding.disarmShortcuts()
    let shortcut = forwarding.shortcut(source: live.source)
    let shortcutWrote = shortcut?.writtenAt
    shortcut?.writtenAt = nil
    switch frame {
    case .touches(let touches):
      live.metrics.count(touches)
      if let window = live.touchWindow {
        if runtime.calibratingWindow == window, touches.contacts.contains(where: { $0.phase == .began }) {
          calibrationDevice = (live.device.path, live.device.name, live.calibration)
        }
        deliver(touches, window: window, calibration: live.calibration, source: live.source)
      }
    case .keys(let keys):
      if let window = live.keyWindow { deliver(keys, window: window, source: live.source) }
    }
    liveFrameTime = nil
    if let shortcut {
      forwarding.frameDelivered(source: live.source)
      if let written = shortcutWrote { frameForwarded = written }
      if case .touches = frame, let window = live.touchWindow, let assembler = live.device.assembler {
        runtime.armShortcut(
          shortcut, source: live.source, window: window, assembler: assembler, calibration: live.calibration)
      }
    }
    if let wake {
      recordLatency(.wake, wake - kernel)
      recordLatency(.assembled, assembled - kernel)
      if let encoded = frameEncoded { recordLatency(.encoded, encoded - kernel) }
      if let forwarded = frameForwarded { recordLatency(.forwarded, forwarded - kernel) }
      recordLatency(.delivered, MonotonicClock.microseconds() - kernel)
    }
    guard !outbound.isEmpty else { return }
    server.publish(outbound, kernelTime: wake == nil ? nil : kernel)
    outbound.removeAll(keepingCapacity: true)
  }

  /// A live frame's stage took `microseconds` from the kernel's timestamp: into `status`'s window
  /// and the metrics' histogram.
  private func recordLatency(_ stage: LatencyStage, _ microseconds: Int64) {
    latency.record(stage, microseconds)
    metrics.recordLatency(stage, microseconds: microseconds)
  }
}
