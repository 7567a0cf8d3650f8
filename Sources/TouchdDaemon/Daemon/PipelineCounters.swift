/// What the pipeline counted since start.
struct PipelineCounters {
  var frames = 0
  var touchesBegan = 0
  /// Key frames delivered (live and replayed key devices).
  var keyFrames = 0
  var actions = 0
  /// Action and touches messages.
  var messages = 0
  /// Trace messages (only while a client subscribes to them).
  var traces = 0
  var reloads = 0
  var reloadFailures = 0
  var scenePushes = 0
  /// SYN_DROPPED resyncs over all devices.
  var resyncs = 0
  /// Touches cancelled for not moving (the scene's `stuckTouchTimeout`).
  var stuckTouches = 0
}
