import Foundation

/// The process's own figures, as Prometheus' process collector reads them on Linux: `/proc/self/stat`
/// (CPU time, start time), `/proc/self/statm` (resident pages), `/proc/self/fd` (open files) and
/// `/proc/stat` (the boot time the start time counts from). Read at a scrape, never on the
/// pipeline's hot path; a figure that cannot be read is left out.
struct ProcessStats {
  var residentBytes: Double?
  var openFiles: Double?
  var cpuSeconds: Double?
  var startTimeSeconds: Double?

  /// Clock ticks per second and the page size (sysconf: glibc's constants, not system calls).
  private static let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
  private static let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))

  /// Reads them now.
  static func read() -> ProcessStats {
    var stats = ProcessStats()
    if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
      let fields = statm.split(separator: " ")
      if fields.count > 1, let pages = Double(fields[1]) { stats.residentBytes = pages * pageSize }
    }
    if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
      // The listing's own descriptor is among them.
      stats.openFiles = Double(max(0, entries.count - 1))
    }
    if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    {
      // proc(5): the fields after the command's closing parenthesis, from field 3 (state) on.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      // utime is field 14, stime 15, starttime 22: indices 11, 12 and 19 from field 3.
      if fields.count > 19, let user = Double(fields[11]), let system = Double(fields[12]) {
        stats.cpuSeconds = (user + system) / ticks
        if let start = Double(fields[19]), let boot = bootTime() { stats.startTimeSeconds = boot + start / ticks }
      }
    }
    return stats
  }

  /// The boot time, seconds since the epoch (`/proc/stat`'s `btime`).
  private static func bootTime() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
      return Double(line.dropFirst("btime ".count))
    }
    return nil
  }
}
