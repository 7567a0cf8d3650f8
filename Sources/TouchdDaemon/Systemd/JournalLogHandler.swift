import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// A swift-log handler writing one line per message to stderr. Under systemd (`JOURNAL_STREAM`
/// set) each line starts with the syslog priority in angle brackets (`<3>`), which journald reads as
/// the message's priority (sd-daemon(3)); elsewhere lines carry the level name and a timestamp-free
/// label, as journald or the terminal adds the time.
public struct JournalLogHandler: LogHandler {
  public var metadata: Logger.Metadata = [:]
  public var logLevel: Logger.Level = .info
  private let label: String
  private let journal: Bool

  public init(label: String, journal: Bool = getenv("JOURNAL_STREAM") != nil) {
    self.label = label
    self.journal = journal
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
    var bytes = Array(line.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
  }
}
