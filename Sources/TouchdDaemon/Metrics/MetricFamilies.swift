import Prometheus

/// Every metric touchd exports, declared once: its name (Prometheus' rules: `touchd_` for the
/// daemon's own, `process_` for the standard process metrics; base units in the name, `_total` on
/// counters), its help text, and the names of its labels (docs/operations.md, "Metrics"). Labels
/// hold ids from the scene, device names and fixed vocabularies: never positions, clients or free
/// text.
struct MetricFamily: Sendable {
  /// Whether a value only grows (a counter), is read as it is (a gauge), or falls in buckets.
  enum Kind: Sendable { case counter, gauge, histogram }

  let name: String
  let help: String
  let kind: Kind
  let labels: [String]

  init(_ name: String, _ kind: Kind, _ help: String, labels: [String] = []) {
    self.name = name
    self.kind = kind
    self.help = help
    self.labels = labels
  }

  /// The family as swift-prometheus registers it: the whole name (its unit and `_total` in it), and
  /// the help that its `# HELP` line carries.
  var descriptor: MetricNameDescriptor {
    MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
  }
}

extension MetricFamily {
  // The pipeline, from `status`'s counters (the same numbers).
  static let frames = MetricFamily("touchd_frames_total", .counter, "Touch frames delivered, live and replayed.")
  static let keyFrames = MetricFamily("touchd_key_frames_total", .counter, "Key frames delivered.")
  static let touchesBegan = MetricFamily("touchd_touches_began_total", .counter, "Touches that began.")
  static let messages = MetricFamily(
    "touchd_messages_total", .counter, "Pipeline messages made (action, touches, scroll, control, presses, idle).")
  static let traceMessages = MetricFamily(
    "touchd_trace_messages_total", .counter, "Trace messages made while a client subscribed to them.")
  static let sceneReloads = MetricFamily(
    "touchd_scene_reloads_total", .counter, "Scene file reloads (SIGHUP, reload) by result: ok or rejected.",
    labels: ["result"])
  static let scenePushes = MetricFamily(
    "touchd_scene_pushes_total", .counter, "Scenes a client's scene command put in place.")
  static let resyncs = MetricFamily("touchd_resyncs_total", .counter, "SYN_DROPPED resyncs over all devices.")
  static let stuckTouches = MetricFamily(
    "touchd_stuck_touches_total", .counter, "Touches cancelled for not moving (the scene's stuckTouchTimeout).")
  static let timerWakeups = MetricFamily(
    "touchd_timer_wakeups_total", .counter, "Wake-ups of the pipeline's timer (long presses, deceleration, idle).")
  static let touchesDown = MetricFamily("touchd_touches_down", .gauge, "Touches down now.")
  static let ignoring = MetricFamily(
    "touchd_ignoring_interaction", .gauge, "The nesting of ignoreInteraction now (0: touches are delivered).")

  // Devices, counted as their frames arrive.
  static let deviceFrames = MetricFamily(
    "touchd_device_frames_total", .counter, "Touch frames read from a live device.", labels: ["device"])
  static let deviceTouchesBegan = MetricFamily(
    "touchd_device_touches_began_total", .counter, "Touches that began on a live device.", labels: ["device"])
  static let deviceTouchesEnded = MetricFamily(
    "touchd_device_touches_ended_total", .counter, "Touches that lifted on a live device.", labels: ["device"])
  static let deviceTouchesCancelled = MetricFamily(
    "touchd_device_touches_cancelled_total", .counter,
    "Touches of a live device cancelled (a resync, an unplug, a palm).", labels: ["device"])
  static let deviceResyncs = MetricFamily(
    "touchd_device_resyncs_total", .counter, "SYN_DROPPED resyncs of a live device.", labels: ["device"])
  static let deviceUnplugs = MetricFamily(
    "touchd_device_unplugs_total", .counter, "Times a live device went away while read.", labels: ["device"])
  static let deviceReadErrors = MetricFamily(
    "touchd_device_read_errors_total", .counter, "Failed reads of a live device (it is closed after one).",
    labels: ["device"])
  static let devices = MetricFamily("touchd_devices", .gauge, "Input devices read now.")

  // The scene's output.
  static let actions = MetricFamily(
    "touchd_actions_total", .counter, "Action messages by action and gesture (control: a control's event).",
    labels: ["action", "gesture"])
  static let recognizerOutcomes = MetricFamily(
    "touchd_recognizer_outcomes_total", .counter,
    "Gestures a recognizer recognized (result recognized) or failed (result failed).", labels: ["recognizer", "result"])
  static let idle = MetricFamily("touchd_idle", .gauge, "1 while the scene is idle (its idle: rule), else 0.")
  static let idleTransitions = MetricFamily(
    "touchd_idle_transitions_total", .counter, "Times the scene went idle (result idle) or woke (result active).",
    labels: ["result"])

  // Forwarding to the virtual touchscreens, from `status`'s devices.
  static let forwardEvents = MetricFamily(
    "touchd_forward_touches_total", .counter,
    "Touches of a device's virtual touchscreen (or a pen display's virtual pen: its strokes) by result: forwarded, held, released, cancelled, no_slot.",
    labels: ["device", "result"])
  static let forwardWriteErrors = MetricFamily(
    "touchd_forward_write_errors_total", .counter, "Failed writes to a device's virtual touchscreen or pen.",
    labels: ["device"])

  // Clients, from `status`'s counters.
  static let clients = MetricFamily("touchd_clients", .gauge, "Clients connected now.")
  static let clientsAccepted = MetricFamily("touchd_clients_accepted_total", .counter, "Clients accepted.")
  static let clientsDenied = MetricFamily(
    "touchd_clients_denied_total", .counter, "Clients denied by the access policy.")
  static let clientsRefused = MetricFamily(
    "touchd_clients_refused_total", .counter,
    "Clients refused for a limit: result total (--max-clients) or user (--max-clients-per-user).",
    labels: ["result"])
  static let clientsTimedOut = MetricFamily(
    "touchd_clients_timed_out_total", .counter, "Clients closed for no complete line in time, or a line left open.")
  static let clientsDropped = MetricFamily(
    "touchd_clients_dropped_total", .counter, "Clients disconnected for not reading (their send buffer was full).")
  static let messagesSent = MetricFamily(
    "touchd_messages_sent_total", .counter, "Messages written to clients.")
  static let messagesSkipped = MetricFamily(
    "touchd_messages_skipped_total", .counter, "Messages skipped for clients behind with overflow skip.")

  // Latency of live frames, each stage from the kernel's timestamp (docs/performance.md).
  static let latency = MetricFamily(
    "touchd_latency_seconds", .histogram,
    "Live frames: seconds from the kernel's timestamp to each stage (wake, assembled, encoded, forwarded, "
      + "delivered).", labels: ["stage"])

  // Touchscreen health, per window (docs/operations.md, "Touchscreen health"; TouchHealth).
  static let healthTouchDowns = MetricFamily(
    "touchd_health_touch_downs_total", .counter, "Touch-downs on a window's touchscreen.", labels: ["window"])
  static let healthDeadCells = MetricFamily(
    "touchd_health_dead_cells", .gauge,
    "Grid cells of a window's touchscreen with no touch-down over the grid's window while their neighbourhood is busy.",
    labels: ["window"])
  static let healthGhosts = MetricFamily(
    "touchd_health_ghost_touches_total", .counter,
    "Touches with no human shape by kind: burst (sub-frame bursts), pinned (stuck-touch cancels), idle (wakes that "
      + "led to nothing).", labels: ["window", "kind"])
  static let healthJitter = MetricFamily(
    "touchd_health_jitter_points", .gauge,
    "95th percentile distance, in points, of a stationary finger's positions from their neighbours' midpoint.",
    labels: ["window"])
  static let healthDrift = MetricFamily(
    "touchd_health_calibration_drift_points", .gauge,
    "Mean offset, in points, of recent single-finger taps from their view's centre, by axis (x, y).",
    labels: ["window", "axis"])
  static let healthDrifted = MetricFamily(
    "touchd_health_calibration_drifted", .gauge,
    "1 when the calibration drift is past its threshold over enough taps (touchctl health), else 0.",
    labels: ["window"])
  static let healthNearMisses = MetricFamily(
    "touchd_health_near_misses_total", .counter,
    "Taps no recognizer took that landed just outside a tap target, by the nearest target.",
    labels: ["window", "view"])

  // VoiceOver's speech (Speech/), per window that has spoken.
  static let speechUtterances = MetricFamily(
    "touchd_speech_utterances_total", .counter,
    "VoiceOver utterances by result: said (speech-dispatcher took them) or dropped (it was away, or a newer one interrupted them first).",
    labels: ["window", "result"])
  static let speechConnected = MetricFamily(
    "touchd_speech_connected", .gauge, "1 while a window's connection to speech-dispatcher is up, else 0.",
    labels: ["window"])

  // The process (Prometheus' standard names).
  static let residentMemory = MetricFamily(
    "process_resident_memory_bytes", .gauge, "Resident memory size in bytes.")
  static let openFiles = MetricFamily("process_open_fds", .gauge, "Number of open file descriptors.")
  static let maxFiles = MetricFamily("process_max_fds", .gauge, "Maximum number of open file descriptors.")
  static let cpuSeconds = MetricFamily(
    "process_cpu_seconds_total", .counter, "Total user and system CPU time spent in seconds.")
  static let startTime = MetricFamily(
    "process_start_time_seconds", .gauge, "Start time of the process since the Unix epoch in seconds.")

  /// Every family, in the order docs/operations.md's table lists them.
  static let all: [MetricFamily] = [
    .frames,
    .keyFrames,
    .touchesBegan,
    .messages,
    .traceMessages,
    .sceneReloads,
    .scenePushes,
    .resyncs,
    .stuckTouches,
    .timerWakeups,
    .touchesDown,
    .ignoring,
    .deviceFrames,
    .deviceTouchesBegan,
    .deviceTouchesEnded,
    .deviceTouchesCancelled,
    .deviceResyncs,
    .deviceUnplugs,
    .deviceReadErrors,
    .devices,
    .actions,
    .recognizerOutcomes,
    .idle,
    .idleTransitions,
    .forwardEvents,
    .forwardWriteErrors,
    .clients,
    .clientsAccepted,
    .clientsDenied,
    .clientsRefused,
    .clientsTimedOut,
    .clientsDropped,
    .messagesSent,
    .messagesSkipped,
    .latency,
    .healthTouchDowns,
    .healthDeadCells,
    .healthGhosts,
    .healthJitter,
    .healthDrift,
    .healthDrifted,
    .healthNearMisses,
    .speechUtterances,
    .speechConnected,
    .residentMemory,
    .openFiles,
    .maxFiles,
    .cpuSeconds,
    .startTime,
  ]
}
