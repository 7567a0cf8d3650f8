import NIOConcurrencyHelpers
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A client's socket as the publishing thread sees it: a duplicate of the connection's descriptor,
/// written straight from the publisher (the pipeline queue) while nothing is queued for the client
/// on the server's event loop, so that a frame's messages need no thread hop (issue #21).
///
/// # Two writers, one byte stream
/// The event loop writes replies, `hello`, notices and whatever the publisher could not write;
/// the publisher writes published messages. Their bytes never interleave: the publisher writes
/// only under ``lock`` and only while ``loopBytes`` and ``hops`` are 0, and the loop counts its
/// bytes into ``loopBytes`` under the same lock before it writes them (so a loop write waits for
/// a publisher's write in progress, and no publisher write starts until the loop's bytes are out).
/// What the publisher cannot write at once (the socket buffer is full: a slow reader) goes to the
/// loop in order (``hops``), where the send-buffer bound, skipping and `gap` apply as before.
final class ClientOutlet: @unchecked Sendable {
  /// The client's number (``ClientInfo/number``).
  let number: Int
  private let lock = NIOLock()
  /// The duplicate descriptor; -1 once closed.
  private var fd: CInt
  /// Bytes the event loop has queued for the client and not yet written.
  private var loopBytes = 0
  /// Batches handed to the event loop and not yet queued there; 1 at first, until the client's
  /// `hello` is queued (the server then calls ``tookHop()``).
  private var hops = 1
  /// The client's filter, as the event loop last set it.
  private var subscription: Subscription

  init(number: Int, fd: CInt, subscription: Subscription) {
    self.number = number
    self.fd = fd
    self.subscription = subscription
  }

  deinit { if fd >= 0 { SystemCalls.live.close(fd) } }

  /// Whether the client closed its end (POLLHUP: both directions are shut, as its close does; a
  /// client that only shut down its writing, to read its replies, is still there), whether or not
  /// the event loop has read the close yet.
  var peerClosed: Bool {
    lock.withLock {
      guard fd >= 0 else { return true }
      var entry = pollfd(fd: fd, events: 0, revents: 0)
      let ready = withUnsafeMutablePointer(to: &entry) { pointer in
        (try? SystemCalls.live.poll(UnsafeMutableBufferPointer(start: pointer, count: 1), timeout: 0)) ?? 0
      }
      return ready > 0 && entry.revents & Int16(POLLHUP | POLLERR) != 0
    }
  }

  /// What the publisher did with one client's share of a batch.
  enum Outcome {
    /// Nothing was for this client, or everything was written.
    case done(linesWritten: Int)
    /// The rest goes through the event loop: `partial` is the unwritten end of a line already
    /// begun (never dropped), `lines` the messages not begun. ``hops`` counts it until the loop
    /// has taken it (``tookHop()``).
    case deferred(linesWritten: Int, partial: [UInt8], lines: [String])
    /// The descriptor is closed: the connection is going away.
    case closed
  }

  /// Writes the messages of `batch` this client subscribes to, as far as the socket takes them
  /// without blocking. Called by the publisher only. The common case (everything written)
  /// allocates nothing: the lines are collected as an array only when some go to the loop.
  func write(_ batch: [OutboundMessage], into buffer: inout [UInt8]) -> Outcome {
    lock.withLock {
      guard fd >= 0 else { return .closed }
      buffer.removeAll(keepingCapacity: true)
      var count = 0
      for message in batch where subscription.accepts(message) {
        message.append(for: subscription, to: &buffer)
        count += 1
      }
      guard count > 0 else { return .done(linesWritten: 0) }
      func accepted() -> [String] { batch.filter { subscription.accepts($0) }.map { $0.line(for: subscription) } }
      guard loopBytes == 0, hops == 0 else {
        hops += 1
        return .deferred(linesWritten: 0, partial: [], lines: accepted())
      }
      var written = 0
      while written < buffer.count {
        let sent = buffer.withUnsafeBytes { bytes in
          try? SystemCalls.live.send(fd, UnsafeRawBufferPointer(rebasing: bytes[written...]), flags: CInt(MSG_NOSIGNAL))
        }
        // EAGAIN (the reader is behind), or an error the event loop will see too: the loop takes the rest.
        guard case .processed(let n)? = sent, n > 0 else { break }
        written += n
      }
      guard written < buffer.count else { return .done(linesWritten: count) }
      // Some bytes stayed: the lines written whole, the rest of the one begun, the ones not begun.
      hops += 1
      let lines = accepted()
      var complete = 0
      var lineStart = 0
      while lineStart + lines[complete].utf8.count + 1 <= written {
        lineStart += lines[complete].utf8.count + 1
        complete += 1
      }
      let lineEnd = lineStart + lines[complete].utf8.count + 1
      let partial = written > lineStart ? Array(buffer[written..<lineEnd]) : []
      let rest = Array(lines[(partial.isEmpty ? complete : complete + 1)...])
      return .deferred(linesWritten: complete, partial: partial, lines: rest)
    }
  }

  /// The event loop took a deferred batch (its bytes are counted in ``loopBytes`` by now).
  func tookHop() { lock.withLock { hops -= 1 } }

  /// The event loop is about to write `count` bytes; waits for a publisher's write in progress.
  func loopWillWrite(_ count: Int) { lock.withLock { loopBytes += count } }

  /// The event loop's `count` bytes were written (or dropped with the connection).
  func loopWrote(_ count: Int) { lock.withLock { loopBytes -= count } }

  /// The client's filter changed.
  func update(_ subscription: Subscription) { lock.withLock { self.subscription = subscription } }

  /// The connection is going away: no more direct writes, and the duplicate is closed.
  func close() {
    lock.withLock {
      if fd >= 0 { SystemCalls.live.close(fd) }
      fd = -1
    }
  }
}

/// The outlets of the admitted clients, read by the publisher and changed by the event loop.
final class OutletRegistry: @unchecked Sendable {
  private let lock = NIOLock()
  private var outlets: [ClientOutlet] = []

  /// The current outlets; an array shared until the next change (no copy per frame).
  var current: [ClientOutlet] { lock.withLock { outlets } }

  func add(_ outlet: ClientOutlet) { lock.withLock { outlets.append(outlet) } }

  func remove(_ number: Int) { lock.withLock { outlets.removeAll { $0.number == number } } }
}
