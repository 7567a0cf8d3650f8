import NIOCore

/// The two deadlines that keep an idle or stalled client from holding a slot
/// (``SocketServer/Configuration/firstLineTimeout`` and
/// ``SocketServer/Configuration/partialLineTimeout``): the first complete line must come within
/// one of connecting, and a line once begun must end within the other. Lives on the client's
/// event loop, with its ``ClientHandler``.
struct LineDeadlines {
  /// Which deadline passed.
  enum Expired {
    /// No complete line since connecting.
    case firstLine(TimeAmount)
    /// Line `line` begun and not ended.
    case partialLine(line: Int, TimeAmount)
  }

  private let first: TimeAmount
  private let partial: TimeAmount
  private var firstTask: Scheduled<Void>?
  private var partialTask: Scheduled<Void>?
  private var sawCompleteLine = false

  init(first: TimeAmount, partial: TimeAmount) {
    self.first = first
    self.partial = partial
  }

  /// Starts the first line's deadline; `expired` runs on `loop` if it passes.
  mutating func connected(on loop: any EventLoop, expired: @escaping (Expired) -> Void) {
    let first = self.first
    firstTask = loop.assumeIsolated().scheduleTask(in: first) { expired(.firstLine(first)) }
  }

  /// Bytes arrived: `newlines` lines ended, and `partialLength` bytes of line `line` follow the
  /// last of them. A complete line ends the first deadline; a line begun starts the partial one,
  /// and ending it stops it.
  mutating func received(
    newlines: Int, partialLength: Int, line: Int, on loop: any EventLoop, expired: @escaping (Expired) -> Void
  ) {
    if newlines > 0 && !sawCompleteLine {
      sawCompleteLine = true
      firstTask?.cancel()
      firstTask = nil
    }
    if partialLength == 0 {
      partialTask?.cancel()
      partialTask = nil
    } else if newlines > 0 || partialTask == nil {
      // A new line began (after one that ended, or after none): its own deadline.
      partialTask?.cancel()
      let partial = self.partial
      partialTask = loop.assumeIsolated().scheduleTask(in: partial) { expired(.partialLine(line: line, partial)) }
    }
  }

  /// The connection is closing: neither deadline matters any more.
  mutating func cancel() {
    firstTask?.cancel()
    partialTask?.cancel()
    firstTask = nil
    partialTask = nil
  }
}
