import Logging
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A swift-log handler writing one line per message to stderr. When stderr is connected to the
/// journal (``isJournalStream(_:fd:)``) each line starts with the syslog priority in angle brackets
/// (`<3>`), which journald reads as the message's priority (sd-daemon(3)); elsewhere lines carry
/// the level name and a timestamp-free label, as journald or the terminal adds the time.
public struct JournalLogHandler: LogHandler {
  public var metadata: Logger.Metadata = [:]
  public var logLevel: Logger.Level = .info
  private let label: String
  private let journal: Bool

  public init(
    label: String,
    journal: Bool = JournalLogHandler.isJournalStream(getenv("JOURNAL_STREAM").map { String(cString: $0) })
  ) {
    self.label = label
    self.journal = journal
  }

  /// Whether `fd` is the journal stream that `JOURNAL_STREAM` (`value`) names. systemd sets it to the
  /// device and inode of the stream it connected stdout and stderr to, `DEV:INODE` in decimal, and
  /// asks a program to compare them with its own fd's before writing for the journal: the variable is
  /// inherited by children whose stderr may have been redirected since (systemd.exec(5),
  /// "$JOURNAL_STREAM").
  public static func isJournalStream(_ value: String?, fd: Int32 = STDERR_FILENO) -> Bool {
    guard let value, let colon = value.firstIndex(of: ":"), let device = UInt64(value[..<colon]),
      let inode = UInt64(value[value.index(after: colon)...])
    else { return false }
    guard let info = try? SystemCalls.live.fstat(fd, foreign: true) else { return false }
    return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  /// The syslog priority journald maps each level to.
  public static func priority(_ level: Logger.Level) -> Int {
    switch level {
    case .trace, .debug: 7
    case .info: 6
    case .notice: 5
    case .warning: 4
    case .error: 3
    case .critical: 2
    }
  }

  public func log(event: LogEvent) {
    var merged = metadata
    if let extra = event.metadata { merged.merge(extra) { _, new in new } }
    let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    let text = fields.isEmpty ? "\(event.message)" : "\(event.message) \(fields)"
    let line = journal ? "<\(Self.priority(event.level))>\(text)\n" : "\(label): \(event.level): \(text)\n"
    // One write(2) per line keeps lines from concurrent threads whole.
    let bytes = Array(line.utf8)
    _ = bytes.withUnsafeBytes { try? SystemCalls.live.write(STDERR_FILENO, $0, foreign: true) }
  }
}
