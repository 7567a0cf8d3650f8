import Dispatch
import Logging
import TouchdDevices
import TouchdInput

/// The live input devices: found at start, on hotplug and (``openPresentDevices()``) on a new
/// scene; opened for their role (Daemon+DeviceRoles.swift), grabbed and forwarded as it says;
/// read on the pipeline queue when the input thread wakes; closed, their touches and keys
/// cancelled, when they go away.
extension Daemon {
  func startDevices() {
    do {
      let poll = try DevicePoll()
      let thread = InputThread(
        fileDescriptor: poll.fileDescriptor, queue: queue, name: "touchd.input",
        beforeQueue: { [path = forwarding.path] in path.run() }
      ) { [unowned self] wake in readReadyDevices(wake: wake) }
      self.poll = poll
      inputThread = thread
      thread.start()
    } catch {
      logger.error("cannot watch input devices; none will be read", metadata: ["error": "\(error)"])
      return
    }
    do {
      let monitor = try DeviceMonitor()
      let source = DispatchSource.makeReadSource(fileDescriptor: monitor.fileDescriptor, queue: queue)
      source.setEventHandler { [unowned self] in
        settleInput()
        while let event = monitor.receive() { hotplug(event) }
      }
      source.activate()
      self.monitor = monitor
      monitorSource = source
    } catch {
      logger.error("cannot watch for hotplug; devices present now are still read", metadata: ["error": "\(error)"])
    }
    openPresentDevices()
  }

  func openPresentDevices() {
    let found: [DiscoveredDevice]
    do {
      found = try DeviceDiscovery.scan()
    } catch {
      logger.error("cannot enumerate input devices", metadata: ["error": "\(error)"])
      return
    }
    for device in found where devices[device.path] == nil {
      let decision = device.decision
      // A device a window's keys.devices names is opened even when touchd may not take it, so the
      // log says why not.
      let keysNamed =
        device.description.map {
          keysNamedWindow(for: $0, path: device.path, properties: device.udev?.values ?? [:]) != nil
        } ?? false
      guard decision.isTouchscreen || keysNamed else {
        reportNotTaken(path: device.path, description: device.description, decision)
        continue
      }
      openDevice(device.path)
    }
    if !devices.values.contains(where: { $0.touchWindow != nil }) {
      logger.notice(
        "no touchscreen taken; touchd keeps watching for one to appear",
        metadata: [
          "devices.seen": "\(found.count)",
          "devices.touchLike": "\(found.filter { $0.decision.looksLikeTouchDevice }.count)",
          "hint": .string(
            "touchd takes what udev tags ID_INPUT_TOUCHSCREEN=1 (and no TOUCHD_IGNORE=1); "
              + "`touchctl devices` shows each device's classification and reason"),
        ])
    }
  }

  private func hotplug(_ event: DeviceEvent) {
    switch event.action {
    case .add:
      guard devices[event.path] == nil else { return }
      openDevice(event.path)
    case .remove:
      guard devices[event.path] != nil else { return }
      logger.info("input device removed", metadata: ["device.path": "\(event.path)"])
      closeDevice(event.path, cancelTouches: true, cancelKeys: true)
    case .change:
      // A rule changed (TOUCHD_IGNORE, ID_INPUT_TOUCHSCREEN): decide again.
      guard let live = devices[event.path] else {
        openDevice(event.path)
        return
      }
      guard let probe = try? EvdevDevice(path: event.path) else { return }
      probe.close()
      let current = Role(touchWindow: live.touchWindow, keyWindow: live.keyWindow)
      let now = role(of: probe)
      // A new LIBINPUT_CALIBRATION_MATRIX (a rule `touchctl calibrate --udev-rule` wrote) takes
      // effect too: the device is reopened with it.
      let calibration = probe.calibrationMatrix.flatMap(CalibrationMatrix.init(values:))
      let calibrationChanged = now.touchWindow != nil && calibration != live.calibration
      guard now != current || calibrationChanged else { return }
      var metadata = decisionMetadata(path: event.path, name: probe.name, probe.decision)
      if now == current {
        metadata["calibration"] = "\(calibration.map { "\($0)" } ?? "none")"
        closeDevice(event.path, cancelTouches: true, cancelKeys: true)
        logger.notice(
          "touchscreen's udev calibration changed; it is reopened with it, its touches cancelled", metadata: metadata)
        openDevice(event.path)
        return
      }
      closeDevice(event.path, cancelTouches: true, cancelKeys: true)
      if !now.isEmpty {
        logger.notice(
          "input device taken differently now; it is reopened, its touches and keys cancelled", metadata: metadata)
        openDevice(event.path)
      } else if current.touchWindow != nil {
        logger.notice("touchscreen no longer taken; its touches are cancelled", metadata: metadata)
      } else {
        logger.notice("key device no longer taken; its keys are cancelled", metadata: metadata)
      }
    }
  }

  private func openDevice(_ path: String) {
    let device: InputDevice
    let role: Role
    let source = nextSource
    var forwards = false
    do {
      let probe = try EvdevDevice(path: path)
      let description = probe.description
      role = self.role(of: probe)
      if probe.decision.isTouchscreen && role.touchWindow == nil {
        let id = description.id.vendorProduct
        logger.notice(
          "no window of the scene claims this touchscreen",
          metadata: [
            "device.path": "\(path)", "device.name": "\(probe.name)",
            "remedy":
              "add a `devices:` pattern that matches its name \"\(probe.name)\", its id \(id), its path or a udev property (KEY=VALUE, `touchctl devices` lists them) to a window of \(options.scenePath)",
          ])
      }
      let properties = probe.udev?.values ?? [:]
      if role.keyWindow == nil, let named = keysNamedWindow(for: description, path: path, properties: properties) {
        var metadata = decisionMetadata(path: path, name: probe.name, probe.decision)
        metadata["window"] = "\(scene.windows[named].id)"
        logger.notice("key device not taken", metadata: metadata)
      }
      guard !role.isEmpty else {
        probe.close()
        if !probe.decision.isTouchscreen && keysNamedWindow(for: description, path: path, properties: properties) == nil
        {
          reportNotTaken(path: path, description: description, probe.decision)
        }
        return
      }
      let ids = role.touchWindow == nil ? nil : self.ids
      // A window with `forward:` grabs its touchscreens once their virtual touchscreens exist.
      if let window = role.touchWindow, scene.windows[window].forward != nil {
        forwards = forwarding.attach(description, path: path, source: source, window: window, runtime: runtime)
      }
      if grabs(role, forwards: forwards) {
        probe.close()
        device = try InputDevice(path: path, grab: true, touches: ids, keys: role.keyWindow != nil)
      } else {
        device = try InputDevice(device: probe, touches: ids, keys: role.keyWindow != nil)
      }
    } catch {
      if forwards { forwarding.detach(source: source, runtime: runtime) }
      logger.warning("cannot open input device", metadata: ["device.path": "\(path)", "error": "\(error)"])
      return
    }
    let calibration = device.calibrationMatrix.flatMap(CalibrationMatrix.init(values:))
    guard let poll else { return }
    let token: UInt64
    do {
      token = try poll.add(device.fileDescriptor, path: path)
    } catch {
      logger.warning("cannot watch input device", metadata: ["device.path": "\(path)", "error": "\(error)"])
      if forwards { forwarding.detach(source: source, runtime: runtime) }
      device.close()
      return
    }
    let live = LiveDevice(
      device: device, touchWindow: role.touchWindow, keyWindow: role.keyWindow, source: source,
      calibration: calibration, token: token, metrics: DeviceMetrics(device: device.name, in: metrics))
    nextSource += 1
    polledPaths[token] = path
    devices[path] = live
    registerDevice(live)
    if forwards { forwarding.connect(device.device, source: live.source, token: token) }
    // Events queued before the source existed (fingers already down, a key held) are read now;
    // then the state no event reports (headphones plugged in before touchd opened the jack).
    readDevice(live)
    for frame in device.openingFrames() { deliver(frame, from: live) }
    var metadata: Logger.Metadata = [
      "device.path": "\(path)", "device.name": "\(device.name)", "grabbed": "\(device.device.isGrabbed)",
    ]
    if let window = role.keyWindow {
      metadata["keys.window"] = "\(scene.windows[window].id)"
      metadata["device.id"] = "\(device.description.id.vendorProduct)"
    }
    if let window = role.touchWindow {
      metadata["window"] = "\(scene.windows[window].id)"
      metadata["calibration"] = "\(calibration.map { "\($0)" } ?? "none")"
      metadata["forward"] = "\(forwards)"
      logger.info("touchscreen opened", metadata: metadata)
    } else {
      logger.info("key device opened", metadata: metadata)
    }
    notifier.status(statusLine())
  }

  /// Reads every device the poll set reports ready (events, or the error of an unplugged node).
  /// Reads every device with input; `wake`: when the input thread woke for it.
  private func readReadyDevices(wake: Int64) {
    guard let poll else { return }
    // What the forwarding path read ahead first (its device's fd may be empty now), then the rest.
    forwarding.path.pending { token in readDevice(token: token, wake: wake) }
    for token in poll.ready() { readDevice(token: token, wake: wake) }
    // The end of the input turn: the path may take the shortcuts armed for the next frames.
    forwarding.path.publish()
  }

  private func readDevice(token: UInt64, wake: Int64? = nil) {
    if let path = polledPaths[token], let live = devices[path] { readDevice(live, wake: wake) }
  }

  /// The start of any work on the queue but an input turn: the forwarding path takes no frame
  /// until the next input turn ends, the frames it read ahead (and may have written) are delivered
  /// first, and every shortcut is disarmed, since the work may change what the next frame does.
  func settleInput() {
    dispatchPrecondition(condition: .onQueue(queue))
    forwarding.path.settle { token in readDevice(token: token) }
    forwarding.disarmShortcuts()
  }

  /// Reads what a device has; `wake`: when the input thread woke for it (nil for the read at open).
  func readDevice(_ live: LiveDevice, wake: Int64? = nil) {
    do {
      let drops = live.device.resyncCount
      let status = try live.device.readFrames { frame in deliver(frame, from: live, wake: wake) }
      if live.device.resyncCount > drops {
        counters.resyncs += live.device.resyncCount - drops
        live.metrics.resyncs.increment(by: live.device.resyncCount - drops)
        logger.warning(
          "events dropped by the kernel (SYN_DROPPED); touches and keys resynced",
          metadata: ["device.path": "\(live.device.path)", "resyncs": "\(live.device.resyncCount)"])
      }
      if status == .removed {
        logger.info("input device unplugged", metadata: ["device.path": "\(live.device.path)"])
        live.metrics.unplugs.increment()
        closeDevice(live.device.path, cancelTouches: false, cancelKeys: false)
      }
    } catch {
      live.metrics.readErrors.increment()
      logger.error(
        "input device read failed; closing it", metadata: ["device.path": "\(live.device.path)", "error": "\(error)"])
      closeDevice(live.device.path, cancelTouches: true, cancelKeys: true)
    }
  }

  /// Tells the runtime of a live device by its source: a pen display and the touchscreen of its
  /// panel pair (udev's `LIBINPUT_DEVICE_GROUP`, a window's `penPairs:`).
  func registerDevice(_ live: LiveDevice) {
    runtime.addInputDevice(
      source: live.source, description: live.device.description, path: live.device.path,
      properties: live.device.device.udev?.values ?? [:])
  }

  /// Stops reading a device, first delivering the frames that cancel its touches and its keys
  /// down, as asked (a read that saw the removal delivered them already).
  func closeDevice(_ path: String, cancelTouches: Bool, cancelKeys: Bool) {
    guard let live = devices.removeValue(forKey: path) else { return }
    if cancelTouches || cancelKeys {
      for frame in live.device.cancelAll() {
        switch frame {
        case .touches: if cancelTouches { deliver(frame, from: live) }
        case .keys: if cancelKeys { deliver(frame, from: live) }
        }
      }
    }
    // Its virtual touchscreen goes first, with the cancels above, while the device is still grabbed.
    forwarding.detach(source: live.source, runtime: runtime)
    runtime.removeInputDevice(source: live.source)
    // Out of the poll set first, then closed: the fd is never closed while watched.
    poll?.remove(live.token)
    polledPaths[live.token] = nil
    live.device.close()
    notifier.status(statusLine())
  }
}
