import Foundation

/// What ``TouchdClient/messages`` yields: the daemon's messages and the client's own events.
public enum TouchdEvent: Sendable, Hashable {
  /// A line of the daemon.
  case message(TouchdMessage)
  /// The connection was lost and made again; yielded once the subscription is back.
  case reconnected(TouchdClient.Reconnected)
  /// Messages missed while disconnected from the same daemon run, counted from `seq`; yielded just
  /// before the first message that carries a `seq` after a reconnection.
  case missed(TouchdClient.Missed)

  /// The message, if this is one.
  public var message: TouchdMessage? {
    if case .message(let message) = self { return message }
    return nil
  }
}

/// The errors of ``TouchdClient``.
public enum TouchdError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The daemon refused a command (or the connection: `access denied`), with its message word for
  /// word: `unknown view 'dor' (did you mean 'door'?)`.
  case daemon(message: String)
  /// The connection closed before the command's answer. The command may or may not have taken
  /// effect: it is never sent again. With reconnection off, also what the messages and commands
  /// throw once the connection is gone.
  case connectionLost
  /// No answer (or no connection) within the time allowed.
  case timeout
  /// The client was closed (``TouchdClient/close()``).
  case closed
  /// With reconnection off: the socket could not be opened (no daemon there, no permission).
  case cannotConnect(path: String, reason: String)

  public var description: String {
    switch self {
    case .daemon(let message): "touchd: \(message)"
    case .connectionLost: "the connection to touchd closed before the answer"
    case .timeout: "no answer from touchd in time"
    case .closed: "the touchd client is closed"
    case .cannotConnect(let path, let reason): "cannot connect to touchd at \(path): \(reason)"
    }
  }
}

extension TouchdClient {
  /// The client lost its connection and made a new one; yielded once it subscribed again.
  public struct Reconnected: Sendable, Hashable {
    /// Whether the daemon is another run (its `hello.instance` changed): its `seq` started again at
    /// 1, and what the old one published after the last message seen cannot be known.
    public var restarted: Bool
    /// The new connection's hello.
    public var hello: Hello
    /// The instance of the connection before.
    public var previousInstance: String?
    /// The last `seq` seen before the connection dropped (nil after a restart, or if none came).
    public var lastSeq: Int?
    /// Connection attempts it took.
    public var attempts: Int
    /// The daemon's error if the last subscription could not be made again (its default filter,
    /// actions only, is then in effect).
    public var resubscribeError: String?

    /// The daemon run now connected to.
    public var instance: String? { hello.instance }
  }

  /// Messages missed while disconnected from the same daemon run: `count = seq - lastSeq - 1`.
  ///
  /// Exact when the client is subscribed to every type that carries `seq` without an `actions` or
  /// `views` filter; otherwise an upper bound, since `seq` also counts messages the filter would
  /// not have sent. Messages that arrive after the reconnection but before the subscription is
  /// back (they came under the daemon's default filter) are dropped and counted here.
  public struct Missed: Sendable, Hashable {
    /// `seq - lastSeq - 1`.
    public var count: Int
    /// The last `seq` seen before the connection dropped.
    public var lastSeq: Int
    /// The first `seq` after the reconnection: the message that follows this event.
    public var seq: Int
    /// Whether `count` is exact rather than an upper bound.
    public var exact: Bool
  }

  /// When and how to connect again after the connection closes or cannot be made.
  ///
  /// The delay before an attempt starts at `initialDelay` after the first failure (or a lost
  /// connection), is multiplied by `factor` after each further failure up to `maximumDelay`, and
  /// is varied by up to ±`jitter` (a fraction) so that many clients do not retry in step.
  public struct ReconnectPolicy: Sendable, Hashable {
    /// Whether to connect again at all. Without it, ``TouchdClient/connect(timeout:)`` throws the
    /// connection error and, once the connection closes, the messages and every command throw
    /// ``TouchdError/connectionLost``.
    public var isEnabled: Bool
    /// The delay after the first failure or a lost connection (0.05 s).
    public var initialDelay: Duration
    /// The longest delay (2 s).
    public var maximumDelay: Duration
    /// The delay's growth per further failure (2).
    public var factor: Double
    /// The delay's variation, a fraction (0.2: ±20 %).
    public var jitter: Double

    public init(
      isEnabled: Bool = true, initialDelay: Duration = .milliseconds(50), maximumDelay: Duration = .seconds(2),
      factor: Double = 2, jitter: Double = 0.2
    ) {
      self.isEnabled = isEnabled
      self.initialDelay = initialDelay
      self.maximumDelay = maximumDelay
      self.factor = factor
      self.jitter = jitter
    }

    /// 0.05 s doubling up to 2 s, ±20 %.
    public static let `default` = ReconnectPolicy()
    /// No reconnection.
    public static let never = ReconnectPolicy(isEnabled: false)

    /// The delay before the attempt that follows `failures` failed ones (zero for none).
    public func delay(afterFailures failures: Int) -> Duration {
      guard failures > 0 else { return .zero }
      let initial = initialDelay.seconds
      let maximum = maximumDelay.seconds
      let base = min(maximum, initial * pow(factor, Double(min(failures - 1, 64))))
      let spread = jitter * Double.random(in: -1...1)
      return .seconds(max(0, min(maximum, base * (1 + spread))))
    }
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }
}
