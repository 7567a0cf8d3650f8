/// How `touchd` runs: the command line, validated.
public struct DaemonOptions: Sendable {
  /// The scene file (YAML).
  public var scenePath: String
  /// Where to listen when systemd did not pass a socket.
  public var socketPath = "/run/touchd/touchd.sock"
  /// Group of the socket file touchd creates (nil: the daemon's).
  public var socketGroup: String?
  /// Users and groups allowed to connect (empty: whoever can open the socket).
  public var allowUsers: [String] = []
  public var allowGroups: [String] = []
  /// Unsent bytes a client may have before it counts as stalled.
  public var clientBufferBytes = 256 * 1024
  /// Feed this recording in real time instead of reading devices.
  public var replayPath: String?
  /// The `.desc` of a split evemu recording.
  public var replayDescriptionPath: String?
  /// Start the recording again when it ends.
  public var replayLoop = false
  /// Replay this many times as fast as real time.
  public var replaySpeed = 1.0
  /// Seconds to wait after start before the replay begins (lets clients connect first).
  public var replayDelay = 0.0
  /// Stop the daemon once the recording (not looping) has been played and its timers ran out.
  public var exitAfterReplay = false

  public init(scenePath: String) { self.scenePath = scenePath }
}
