// One window's connection to speech-dispatcher: its settings, the utterances waiting for their
// turn (SSIP is one command at a time), and reconnection with backoff. Everything runs on the
// speech output's event loop; the pipeline only hands requests over.
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TouchdLines
import TouchdScene

/// What one window's speech sends to speech-dispatcher, and the connection it goes through.
///
/// - **Nothing waits.** Requests arrive on ``loop`` and are queued; each SSIP command is written
///   when the reply to the one before it is complete. The first words wait for the first
///   connection; while speech-dispatcher is away, utterances are dropped (counted in the
///   window's ``SpeechCounts``): speech that comes back seconds late says what is no longer under the finger.
/// - **Interrupting.** An interrupting utterance drops the utterances still queued here and sends
///   ``SSIP/cancel`` before its own, so speech-dispatcher stops what it says and drops what it has
///   queued. Commands that are not utterances (settings, pause, resume) are never dropped.
/// - **Bounded.** At most ``maximumQueued`` utterances wait; beyond it the oldest go.
/// - **Gone.** A refused connection, a closed one, or a reply that does not come within
///   ``replyTimeout`` is logged once (and once more when speech is back), and the connection is
///   tried again after ``retryDelay(afterFailures:)``.
///
/// # Thread safety
/// Confined to ``loop``: every method runs there (NIO's callbacks do), hence `@unchecked Sendable`.
final class SpeechConnection: @unchecked Sendable {
  /// A command to send, or an utterance (a `SPEAK` and its text).
  enum Unit: Equatable {
    case command(String)
    case utterance(String)

    var isUtterance: Bool { if case .utterance = self { true } else { false } }
  }

  /// The longest an utterance queue gets: far more than a screen's elements read all at once.
  static let maximumQueued = 256
  /// How long a reply may take before the connection is taken for hung: speech-dispatcher answers
  /// a command at once (it queues the speech), so seconds mean it is stuck.
  static let replyTimeout = TimeAmount.seconds(5)

  /// touchd's backoff (SSIP names none): 0.25 s after the first failure, doubling up to 8 s, so a
  /// speech-dispatcher that restarts is heard again within a second or so and an absent one
  /// costs a connection attempt every 8 s.
  static func retryDelay(afterFailures failures: Int) -> TimeAmount {
    .milliseconds(Int64(250 << min(max(failures - 1, 0), 5)))
  }

  let loop: EventLoop
  let window: String
  private let logger: Logger
  private(set) var settings: Scene.Speech
  /// The socket's path.
  private(set) var path: String
  private var connecting = false
  private var queue: [Unit] = []
  /// The command whose reply is awaited; a `SPEAK` answered 230 sends its text next.
  private var inFlight: (line: String, text: String?)?
  private var deadline: Scheduled<Void>?
  private var retry: Scheduled<Void>?
  private var failures = 0
  /// Whether speech-dispatcher's absence was logged since it was last there.
  private var reportedAbsent = false
  /// Utterances said and dropped, and whether the connection is up, for the metrics (read on the
  /// pipeline's queue at a scrape, hence the lock): this window's entry of the output's table, kept
  /// here alone.
  private let counts: NIOLockedValueBox<[String: SpeechCounts]>
  private var channel: Channel? {
    didSet { if (oldValue == nil) != (channel == nil) { count { $0.connected = channel != nil } } }
  }

  init(
    window: String, settings: Scene.Speech, path: String, loop: EventLoop, logger: Logger,
    counts: NIOLockedValueBox<[String: SpeechCounts]>
  ) {
    self.window = window
    self.settings = settings
    self.path = path
    self.loop = loop
    self.logger = logger
    self.counts = counts
    // The window shows in the metrics from its first request, connected or not.
    count { _ in }
  }

  /// Takes one request of the window's VoiceOver.
  func handle(_ kind: SpeechRequest.Kind) {
    loop.preconditionInEventLoop()
    switch kind {
    case .say(let text, let hint, let interrupting):
      enqueue([text] + (hint.map { [$0] } ?? []), interrupting: interrupting)
    case .sayAll(let texts): enqueue(texts, interrupting: true)
    case .pause: queue.append(.command(SSIP.pause))
    case .resume: queue.append(.command(SSIP.resume))
    }
    if channel == nil {
      connect()
    } else {
      sendNext()
    }
  }

  /// The window's `speech:` changed: a new socket means a new connection; other settings are sent.
  func update(_ new: Scene.Speech, path newPath: String) {
    loop.preconditionInEventLoop()
    defer { settings = new }
    if newPath != path {
      path = newPath
      let old = channel
      disconnect(keepingCommands: true)
      old?.close(promise: nil)
      return connect()
    }
    guard channel != nil else { return }
    queue += settingCommands(new, changedFrom: settings).map(Unit.command)
    sendNext()
  }

  private func enqueue(_ texts: [String], interrupting: Bool) {
    // Known to be away: dropped. Connecting for the first time (the window's first words) or again
    // after a failure that has not been retried yet: queued for the connection.
    guard channel != nil || failures == 0 else { return drop(texts.count) }
    if interrupting {
      dropUtterances()
      queue.append(.command(SSIP.cancel))
    }
    queue += texts.map(Unit.utterance)
    var utterances = queue.count { $0.isUtterance }
    while utterances > Self.maximumQueued, let first = queue.firstIndex(where: \.isUtterance) {
      queue.remove(at: first)
      drop(1)
      utterances -= 1
    }
  }

  /// The `SET` commands of `new` that differ from `old` (all of them for a new connection: nil).
  private func settingCommands(_ new: Scene.Speech, changedFrom old: Scene.Speech?) -> [String] {
    var commands: [String] = []
    if new.language != old?.language { commands.append(SSIP.language(new.language)) }
    if new.rate != old?.rate { commands.append(SSIP.rate(new.rate)) }
    if let voice = new.voice, voice != old?.voice { commands.append(SSIP.voice(voice)) }
    return commands
  }

  private func connect() {
    guard !connecting, retry == nil else { return }
    connecting = true
    let path = path
    ClientBootstrap(group: loop)
      .channelInitializer { [weak self] channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder(maximumLength: 64 << 10)))
          try channel.pipeline.syncOperations.addHandler(SSIPReplyHandler(connection: self))
        }
      }
      .connect(unixDomainSocketPath: path)
      .whenComplete { [weak self] result in
        guard let self else { return }
        connecting = false
        switch result {
        case .success(let channel): connected(channel, to: path)
        case .failure(let error): lost("cannot connect to it: \(error)", channel: nil)
        }
      }
  }

  private func connected(_ channel: Channel, to connectedPath: String) {
    // The socket changed while connecting: the new one is tried.
    guard connectedPath == path else {
      channel.close(promise: nil)
      return connect()
    }
    self.channel = channel
    failures = 0
    if reportedAbsent {
      reportedAbsent = false
      logger.notice("speech-dispatcher is back: VoiceOver speaks again", metadata: metadata)
    }
    // A new connection has none of SSIP's settings ("SSIP doesn't store session parameters").
    let setup = [SSIP.clientName(window: window), SSIP.priorityMessage] + settingCommands(settings, changedFrom: nil)
    queue.insert(contentsOf: setup.map(Unit.command), at: 0)
    sendNext()
  }

  /// The connection failed (`channel` nil) or `channel` closed: logged once, tried again after the
  /// backoff. Utterances queued go (they would be late). A channel that is no longer the
  /// connection's (the socket changed) closes quietly.
  func lost(_ why: String, channel closing: Channel?) {
    loop.preconditionInEventLoop()
    if let closing, closing !== channel { return }
    disconnect(keepingCommands: false)
    failures += 1
    if !reportedAbsent {
      reportedAbsent = true
      var m = metadata
      m["reason"] = "\(why)"
      logger.warning(
        "speech-dispatcher is not there: VoiceOver goes on without speech, and touchd keeps trying", metadata: m)
    }
    retry = loop.scheduleTask(in: Self.retryDelay(afterFailures: failures)) { [weak self] in
      guard let self else { return }
      retry = nil
      connect()
    }
  }

  /// One line of a reply.
  func received(_ line: Substring) {
    guard let reply = SSIP.reply(line) else {
      return logger.debug("speech-dispatcher: a line that is no reply", metadata: ["line": "\(line)"])
    }
    guard reply.isLast, let sent = inFlight else { return }
    deadline?.cancel()
    inFlight = nil
    if let text = sent.text, reply.code == SSIP.receivingData {
      // The SPEAK was accepted: its text now, and the reply to it (225) after.
      count { $0.said += 1 }
      return write(SSIP.textBlock(text), text: nil)
    }
    if !SSIP.isSuccess(reply.code) {
      var m = metadata
      m["command"] = "\(sent.line)"
      m["reply"] = "\(line)"
      logger.warning("speech-dispatcher refused a command", metadata: m)
    }
    sendNext()
  }

  /// Forgets the channel and the reply awaited, and drops the utterances queued (counted); the
  /// commands too unless `keepingCommands` (a new connection sends its settings anew).
  private func disconnect(keepingCommands: Bool) {
    channel = nil
    deadline?.cancel()
    inFlight = nil
    dropUtterances()
    if !keepingCommands { queue.removeAll() }
  }

  /// Drops every utterance queued, counting them; commands stay.
  private func dropUtterances() {
    let before = queue.count
    queue.removeAll(where: \.isUtterance)
    drop(before - queue.count)
  }

  private func drop(_ utterances: Int) {
    if utterances > 0 { count { $0.dropped += utterances } }
  }

  /// Changes this window's counts (its entry made at the first).
  private func count(_ change: (inout SpeechCounts) -> Void) {
    counts.withLockedValue { change(&$0[window, default: SpeechCounts()]) }
  }

  private func sendNext() {
    guard inFlight == nil, channel != nil, !queue.isEmpty else { return }
    switch queue.removeFirst() {
    case .command(let line): write(line, text: nil)
    case .utterance(let text): write(SSIP.speak, text: text)
    }
  }

  private func write(_ line: String, text: String?) {
    guard let channel else { return }
    inFlight = (line, text)
    var buffer = channel.allocator.buffer(capacity: line.utf8.count + 2)
    buffer.writeString(line)
    buffer.writeString("\r\n")
    channel.writeAndFlush(buffer, promise: nil)
    deadline = loop.scheduleTask(in: Self.replyTimeout) { [weak self] in
      guard let self, let channel = self.channel else { return }
      logger.warning("speech-dispatcher did not answer: the connection is closed", metadata: metadata)
      channel.close(promise: nil)
    }
  }

  private var metadata: Logger.Metadata { ["window": "\(window)", "socket": "\(path)"] }
}

/// One window's speech, as the metrics show it.
struct SpeechCounts: Sendable {
  var said = 0
  var dropped = 0
  var connected = false
}

/// Reads a speech-dispatcher connection's reply lines into its ``SpeechConnection``, and tells it
/// when the connection closes.
final class SSIPReplyHandler: ChannelInboundHandler, @unchecked Sendable {
  typealias InboundIn = ByteBuffer

  private weak var connection: SpeechConnection?

  init(connection: SpeechConnection?) { self.connection = connection }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let line = unwrapInboundIn(data)
    connection?.received(Substring(String(buffer: line)))
  }

  func channelInactive(context: ChannelHandlerContext) {
    connection?.lost("the connection closed", channel: context.channel)
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    context.close(promise: nil)
  }
}
