// The session's lines for ProtocolSchema: each message and reply built by the protocol's own types
// and written by their encoders, with every key and with the fewest.

extension ProtocolSchema {
  static var sessionExamples: [Example] {
    let window = WindowInfo(id: "main", width: 1920, height: 1080)
    var counters = StatusReply.Counters()
    counters.frames = 1
    let stage = StatusReply.StageSummary(samples: 1, p50: 40, p90: 40, p99: 40, max: 40)
    let full = StatusReply(
      scene: "/etc/touchd/scene.yaml", windows: [window],
      devices: [
        .init(
          path: "/dev/input/event5", name: "panel", window: "main", keysWindow: "main", grabbed: true,
          forward: .init(
            node: "/dev/input/event9", name: "panel (touchd)", forwarded: 1, held: 0, released: 0, cancelled: 0,
            noSlot: 0, writeErrors: 0, shortcutFrames: 0, shortcutMismatches: 0))
      ],
      replay: "tap.evemu", touchesDown: 0,
      latency: .init(
        frames: 1, window: 1024, wake: stage, assembled: stage, encoded: stage, forwarded: stage, delivered: stage,
        handed: stage),
      idle: .init(state: "active", after: 60, wake: "swallow", lastInput: 1.5, secondsSinceInput: 0.5), ignoring: 0,
      tracing: false, clients: 1,
      webSocket: .init(address: "127.0.0.1:8911", origins: ["http://localhost"], allowRemote: false),
      limits: .init(
        clients: 128, clientsPerUser: 16, lineBytes: 2162688, clientBufferBytes: 262144, sceneBytes: 2097152,
        openFiles: 1024, firstLineSeconds: 30, partialLineSeconds: 10),
      counters: counters)
    var minimal = full
    minimal.devices = [
      .init(path: "/dev/input/event5", name: "panel", window: nil, keysWindow: nil, grabbed: false, forward: nil)
    ]
    minimal.replay = nil
    minimal.latency = .init(
      frames: 0, window: 1024, wake: nil, assembled: nil, encoded: nil, forwarded: nil, delivered: nil, handed: nil)
    minimal.idle = .init(state: "active", after: 60, wake: "swallow", lastInput: nil, secondsSinceInput: nil)
    minimal.webSocket = nil
    let calibrate = CalibrateReply(
      window: "main", matrix: [1, 0, 0, 0, 1, 0], rmsError: 0.5, maxError: 1, warning: "off its target",
      points: [.init(at: .init(x: 10, y: 10), landed: .init(x: 10.5, y: 10), error: 0.5)],
      device: .init(path: "/dev/input/event5", name: "panel"), udevMatrix: [1, 0, 0, 0, 1, 0])
    var calibrateMinimal = calibrate
    calibrateMinimal.warning = nil
    calibrateMinimal.device = nil
    let healthFull = HealthReply(windows: [
      .init(
        id: "main", heatmap: true, touchDowns: 40, grid: .init(columns: 2, rows: 1, counts: [40, 0]),
        deadCells: [.init(column: 1, row: 0)], ghosts: .init(burst: 5, pinned: 1, idle: 2),
        jitter: .init(samples: 300, p95: 0.42),
        drift: .init(taps: 60, x: 9.5, y: -1.25, threshold: 8, minimumTaps: 50, drifted: true),
        nearMisses: [.init(view: "pay", left: 0, right: 3, above: 0, below: 2)])
    ])
    // A window with its grid off and nothing measured yet: every key that may be null is.
    let healthMinimal = HealthReply(windows: [
      .init(
        id: "pin", heatmap: false, touchDowns: 0, grid: nil, deadCells: [], ghosts: .init(burst: 0, pinned: 0, idle: 0),
        jitter: .init(samples: 0, p95: nil),
        drift: .init(taps: 0, x: nil, y: nil, threshold: 8, minimumTaps: 50, drifted: false),
        nearMisses: [])
    ])
    let scene = SceneReply(windows: [window], views: 3, recognizers: 2).fieldsJSON
    let addView = UpdatedMessage(.add, .view, id: "bell", parent: "main", index: 3, views: 4, recognizers: 3)
    let removeRecognizer = UpdatedMessage(
      .remove, .recognizer, id: "tap", parent: "bell", index: 0, views: 3, recognizers: 2)
    let rotated = WindowChangedMessage(
      window: "main", width: 1280, height: 720, rotation: 90, calibration: [1, 0, 0, 0, 1, 0])
    func reply(_ fields: String) -> String { ReplyMessage.ok(idJSON: "1", fieldsJSON: fields).jsonLine }
    return [
      Example(
        "hello", full: HelloMessage(instance: "5f0c9a3e7d21b486", windows: [window], views: 12).jsonLine,
        minimal: HelloMessage(instance: nil, windows: [window], views: nil).jsonLine),
      Example(
        "reloaded", full: ReloadedMessage(source: "file", windows: [window], views: 3).jsonLine,
        minimal: ReloadedMessage(source: "file", windows: [window], views: 3).jsonLine),
      Example("gap", full: GapMessage(skipped: 2).jsonLine, minimal: GapMessage(skipped: 2).jsonLine),
      Example("shutdown", full: ShutdownMessage().jsonLine, minimal: ShutdownMessage().jsonLine),
      Example(
        "calibration",
        full: CalibrationMessage(
          window: "main", target: 1, targets: 5, at: .init(x: 1, y: 2), touched: .init(x: 3, y: 4)
        )
        .jsonLine,
        minimal: CalibrationMessage(
          window: "main", target: 1, targets: 5, at: .init(x: 1, y: 2), touched: .init(x: 3, y: 4)
        ).jsonLine),
      Example("updated-view", full: addView.jsonLine, minimal: addView.jsonLine),
      Example("updated-recognizer", full: removeRecognizer.jsonLine, minimal: removeRecognizer.jsonLine),
      Example("windowChanged", full: rotated.jsonLine, minimal: rotated.jsonLine),
      Example("error", full: ReplyMessage.accessDenied.jsonLine, minimal: ReplyMessage.accessDenied.jsonLine),
      Example("reply-status", full: reply(full.fieldsJSON), minimal: reply(minimal.fieldsJSON)),
      Example("reply-scene", full: reply(scene), minimal: reply(scene)),
      Example("reply-calibrate", full: reply(calibrate.fieldsJSON), minimal: reply(calibrateMinimal.fieldsJSON)),
      Example("reply-update-view", full: reply(addView.fieldsJSON), minimal: reply(addView.fieldsJSON)),
      Example(
        "reply-update-recognizer", full: reply(removeRecognizer.fieldsJSON), minimal: reply(removeRecognizer.fieldsJSON)
      ),
      Example("reply-set-window", full: reply(rotated.fieldsJSON), minimal: reply(rotated.fieldsJSON)),
      Example(
        "reply-set-view", full: reply(SceneChangeReply.view("door").fieldsJSON),
        minimal: reply(SceneChangeReply.view("door").fieldsJSON)),
      Example(
        "reply-ignore-interaction", full: reply(SceneChangeReply.ignoring(1).fieldsJSON),
        minimal: reply(SceneChangeReply.ignoring(1).fieldsJSON)),
      Example(
        "reply-metrics", full: reply(MetricsReply(text: "# TYPE touchd_frames_total counter\n").fieldsJSON),
        minimal: reply(MetricsReply(text: "").fieldsJSON)),
      Example("reply-health", full: reply(healthFull.fieldsJSON), minimal: reply(healthMinimal.fieldsJSON)),
      Example("reply", full: reply(""), minimal: reply("")),
    ]
  }
}
