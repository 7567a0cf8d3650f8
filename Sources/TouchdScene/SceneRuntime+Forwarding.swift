import TouchDelivery
import TouchdInput

// The runtime's forwarding API for the daemon and replay: add and remove a physical touchscreen's
// virtual touchscreen, arm the forwarding shortcut after a frame, flush, and read the counters.
// The forwarding itself is SceneForwarding (SceneForwarding.swift).

extension SceneRuntime {
  /// Adds the virtual touchscreen of the physical touchscreen `physical`, whose frames are
  /// delivered to window `index` with `source` (``handle(_:inWindow:source:)``); its events go to
  /// `output`, a frame or more at a time, in order. Returns the virtual device's description
  /// (named by the window's `forward.name`, else the physical name + " (touchd)"), or nil when the
  /// window has no `forward:`. A source added twice keeps its first device.
  ///
  /// `previous`: the runtime of the scene this one replaces, whose forwarded touches are cancelled
  /// and flushed. When it forwarded `source` to the same virtual device (the same description),
  /// this runtime writes on from the device's state as that one left it
  /// (``ForwardEncoder/continueDevice(of:)``): the daemon keeps the virtual device across the change.
  @discardableResult
  public func addForwarding(
    of physical: DeviceDescription, source: Int, inWindow index: Int, continuing previous: SceneRuntime? = nil,
    output: @escaping ([InputEvent]) -> Void
  ) -> DeviceDescription? {
    guard let forward = scene.windows[index].forward else { return nil }
    let state: SceneForwarding
    if let forwarding {
      state = forwarding
    } else {
      state = SceneForwarding(clock: application.clock) { [unowned self] in self.mappings[$0] }
      forwarding = state
      application.viewDeliveryObserver = { [unowned state] in state.record($0) }
    }
    if let existing = state.device(source: source) { return existing.encoder.description }
    let old = previous?.forwarding?.device(source: source)?.encoder
    let encoder: SceneForwarding.Device.Encoder
    if physical.isPenDisplay {
      // A pen display's virtual device is a pen (docs/pens.md, "Forwarded windows").
      let pen = PenForwardEncoder(device: VirtualPen.description(for: physical, name: forward.name))
      if case .pen(let old) = old, old.device == pen.device { pen.continueDevice(of: old) }
      encoder = .pen(pen)
    } else {
      let touchscreen = ForwardEncoder(device: VirtualTouchscreen.description(for: physical, name: forward.name))
      if case .touchscreen(let old) = old, old.device == touchscreen.device { touchscreen.continueDevice(of: old) }
      encoder = .touchscreen(touchscreen)
    }
    state.add(SceneForwarding.Device(source: source, window: index, encoder: encoder, output: output))
    return encoder.description
  }

  /// Arms `shortcut`, the forwarding shortcut of `source` (a protocol B touchscreen whose frames
  /// come to window `window` with `calibration` applied), for its next frame: with what this scene
  /// would forward ahead of a frame that only moves its forwarded touches (``ForwardShortcut``).
  /// Disarms it and returns false when the next frame may do anything else first: a calibration
  /// takes the window's touches, the scene is idle (its next input may be swallowed), something is
  /// pending for a virtual device, VoiceOver is on in the window (its gestures have the fingers; a
  /// finger passing through is forwarded by the pipeline), or `source` forwards elsewhere or not
  /// at all. Call between
  /// frames, after the last one was delivered; disarm before anything else runs.
  @discardableResult
  public func armShortcut(
    _ shortcut: ForwardShortcut, source: Int, window: Int, assembler: FrameAssembler, calibration: CalibrationMatrix?
  ) -> Bool {
    guard self.calibration == nil, !isIdle, let forwarding, forwarding.isSettled,
      let device = forwarding.device(source: source), device.window == window, mappings.indices.contains(window),
      let encoder = device.touchscreen, !isVoiceOverOn(inWindow: window)
    else {
      shortcut.disarm()
      return false
    }
    return shortcut.arm(
      assembler: assembler, encoder: encoder, axes: device.axes, mapping: mappings[window],
      calibration: calibration, deadline: application.clock.nextDeadline)
  }

  /// Removes `source`'s virtual touchscreen (its device was closed): what is pending for it leaves
  /// first, then its output is never called again. Cancel its touches before (their cancels are
  /// then among what leaves), as the device's removal does.
  public func removeForwarding(source: Int) { forwarding?.remove(source: source) }

  /// Sends the forwarded changes still pending. Frames send their own, and a turn outside a frame
  /// (a timer, a command) sends its own right after it on the clock; the replay calls this at its
  /// end all the same.
  public func flushForwarding() { forwarding?.flush() }

  /// The counters of `source`'s virtual touchscreen, nil when it has none.
  public func forwardCounters(source: Int) -> ForwardCounters? {
    guard let device = forwarding?.device(source: source) else { return nil }
    var counters = device.counters
    counters.held = device.held
    return counters
  }
}
