// touchd.js: a client of touchd's WebSocket endpoint, for browsers and Node (ES module, no build
// step, no dependencies; page-scene.js and scene-diff.js beside it; on a Node without WebSocket,
// the ws package).
// The protocol is docs/protocol.md: each command is one text frame, each message of the daemon
// one text frame (the lines of the Unix socket, without their newline).
//
// - TouchdClient: the daemon's messages as typed objects (see touchd.d.ts), each command a method
//   whose promise resolves to its reply or rejects with the daemon's error (TouchdError), and a
//   connection that comes back by itself (backoff), subscribes again and reports the messages
//   missed meanwhile from `seq` (the same rules as the Python and Swift clients).
// - SceneSync and PageScene (page-scene.js, exported from here too): the daemon's scene kept equal
//   to the page's (clients/js/README.md).
//
// Times are in seconds, as in the protocol and the other clients.

export { canonicalJSON, sceneUpdates } from './scene-diff.js';
// The page's scene (page-scene.js imports this module's errors and types; the cycle is safe:
// neither module uses the other's bindings until a function runs).
export { PageScene, SceneSync, VIEW_KEYS, VIEW_SELECTOR, attributeValue, viewFromDataset } from './page-scene.js';

/** The message types that carry `seq` (one counter in the daemon). */
export const PIPELINE_TYPES = Object.freeze([
  'action', 'touches', 'scroll', 'control', 'presses', 'idle', 'accessibility', 'stroke', 'signature',
]);
/** The types `subscribe` takes: the pipeline's and `trace` (which takes no `seq`). */
export const SUBSCRIBABLE_TYPES = Object.freeze([...PIPELINE_TYPES, 'trace']);
/** Where `touchd --websocket 127.0.0.1:8765` listens. */
export const DEFAULT_URL = 'ws://127.0.0.1:8765/';

// The WebSocket: the global one (browsers, Node 22, Node 20 with --experimental-websocket), else in
// Node the `ws` package (8 or later: its browser-style API), as Debian's node-ws installs it in
// /usr/share/nodejs for Debian 12's Node 18. Looked for only in Node without a global one, through
// CommonJS resolution (global folders included, which `import` does not search); never in browsers.
const inNode = typeof process === 'object' && typeof process.versions?.node === 'string';
const nodeWebSocket =
  inNode && typeof globalThis.WebSocket !== 'function' ? await import('node:module').then(wsPackage) : null;

function wsPackage({ createRequire }) {
  try {
    const ws = createRequire(import.meta.url)('ws');
    return typeof ws === 'function' ? ws : null;
  } catch {
    return null; // not installed: TouchdClient says what to do
  }
}

/** The WebSocket constructor a client uses without `options.WebSocket`: the global one, else (in
 * Node without one) the `ws` package's; null when there is neither. */
export function defaultWebSocket() {
  if (typeof globalThis.WebSocket === 'function') return globalThis.WebSocket;
  return nodeWebSocket;
}

// Errors

/** The daemon answered a command with an error: `message` is its message, word for word. */
export class TouchdError extends Error {
  constructor(message, { id = null, cmd = null } = {}) {
    super(message);
    this.name = 'TouchdError';
    /** The command's id (null when the daemon could not read one). */
    this.id = id;
    /** The command's name, when known. */
    this.cmd = cmd;
  }
}

/** The connection closed (or could not be made without `reconnect`) before the answer. The
 * command may or may not have taken effect: it is never sent again. */
export class ConnectionLost extends Error {
  constructor(message) {
    super(message);
    this.name = 'ConnectionLost';
  }
}

/** No answer (or no connection) within the command's timeout. */
export class TimeoutError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TimeoutError';
  }
}

// Backoff

/** Delays between connection attempts: `initial` seconds after the first failure (or a lost
 * connection), times `factor` after each further one, at most `maximum`, each varied by up to
 * `jitter` (0.2: ±20 %) so that many clients do not retry in step. */
export class Backoff {
  constructor({ initial = 0.05, maximum = 2, factor = 2, jitter = 0.2 } = {}) {
    Object.assign(this, { initial, maximum, factor, jitter });
  }

  /** Seconds before the attempt that follows `failures` failed ones (0: none yet). */
  delay(failures, random = Math.random) {
    if (failures <= 0) return 0;
    const base = Math.min(this.maximum, this.initial * this.factor ** Math.min(failures - 1, 64));
    const spread = this.jitter * (2 * random() - 1);
    return Math.max(0, Math.min(this.maximum, base * (1 + spread)));
  }
}

// Commands

function names(value) {
  if (value === undefined || value === null || typeof value === 'string') return value ?? undefined;
  return Array.from(value);
}

function finiteOnly(key, value) {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`'${key}': touchd takes finite numbers only, found ${value}`);
  }
  return value;
}

/** One command as the text of its frame: `{"cmd":..,"id":..,...fields}` (fields that are
 * `undefined` are left out; NaN and infinities are refused, as the daemon would). */
export function encodeCommand(cmd, id, fields = {}) {
  const object = { cmd, id };
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'cmd' || key === 'id') throw new TypeError(`'${key}' is set by the client, not a command field`);
    object[key] = value;
  }
  return JSON.stringify(object, finiteOnly);
}

// The connection's states
const DISCONNECTED = 'disconnected';
const AWAIT_HELLO = 'await-hello';
const RESUBSCRIBING = 'resubscribing';
const READY = 'ready';

function isInteger(value) {
  return typeof value === 'number' && Number.isInteger(value);
}

/**
 * A client of touchd's WebSocket endpoint (`touchd --websocket HOST:PORT`).
 *
 *   const client = new TouchdClient('ws://127.0.0.1:8765/');
 *   const hello = await client.connect();
 *   await client.subscribe({ types: ['action'] });
 *   for await (const message of client) console.log(message);
 *
 * Options (seconds): `reconnect` (true), `backoff` ({initial, maximum, factor, jitter} or a
 * Backoff), `timeout` (30: a command's wait for its answer; null: none), `connectTimeout`
 * (null: connect() keeps trying), `helloTimeout` (5), `bufferLimit` (4096 messages kept for
 * nextMessage() and iteration), `queue` ('auto': keep messages only while no onMessage listener
 * is registered; true; false), `WebSocket` (the constructor to use; default defaultWebSocket():
 * the global one, else in Node the `ws` package).
 */
export class TouchdClient {
  constructor(url = DEFAULT_URL, options = {}) {
    if (url !== null && typeof url === 'object' && !(url instanceof URL)) {
      options = url;
      url = options.url ?? DEFAULT_URL;
    }
    this.url = String(url);
    this.reconnect = options.reconnect ?? true;
    this.timeout = options.timeout === undefined ? 30 : options.timeout;
    this.connectTimeout = options.connectTimeout ?? null;
    this.helloTimeout = options.helloTimeout ?? 5;
    this.backoff = options.backoff instanceof Backoff ? options.backoff : new Backoff(options.backoff);
    this.bufferLimit = options.bufferLimit ?? 4096;
    this.queueMode = options.queue ?? 'auto';
    this.WebSocket = options.WebSocket ?? defaultWebSocket();
    if (typeof this.WebSocket !== 'function') {
      throw new TypeError(
        'no WebSocket here: browsers and Node 22 or later have one; Node 20 needs --experimental-websocket; ' +
          'Node 18 and 20 use the ws package when it is installed (Debian: apt install node-ws); or pass options.WebSocket',
      );
    }
    this.random = options.random ?? Math.random;

    /** The hello of the current (or last) connection; null before the first. */
    this.hello = null;
    /** Connections that reached hello. */
    this.connections = 0;
    /** Messages dropped because nobody read them (more than bufferLimit waited). */
    this.droppedMessages = 0;

    this._state = DISCONNECTED;
    this._socket = null;
    this._started = false;
    this._closed = false;
    this._ended = null; // why no more messages will come
    this._failures = 0; // failed attempts since the last hello
    this._attemptsSinceHello = 0;
    this._retryTimer = null;
    this._helloTimer = null;
    this._refusal = null;
    this._nextId = 1;
    this._pending = new Map(); // id -> {cmd, fields, internal, resolve, reject, timer}
    this._waitingToSend = []; // commands issued while not connected
    this._subscription = null;
    this._exact = false;
    this._resubscribeId = null;
    this._reconnected = null;
    this._seqInstance = null;
    this._lastSeq = null;
    this._missedFrom = null;
    this._queue = [];
    this._readers = []; // {resolve, reject, timer} waiting in nextMessage()
    this._listeners = new Set();
    this._connectWaiters = [];
  }

  // Life

  /** Connects (trying again with backoff when `reconnect`) and resolves to the daemon's hello.
   * Rejects after `timeout` seconds (default `connectTimeout`) with TimeoutError; without
   * `reconnect`, at the first failure (ConnectionLost; TouchdError for a refusal). */
  connect(timeout = this.connectTimeout) {
    if (this._closed) return Promise.reject(new ConnectionLost('the client is closed'));
    this._start();
    if (this._canSend) return Promise.resolve(this.hello);
    if (this._ended) return Promise.reject(this._ended);
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject, timer: null };
      if (timeout !== null && timeout !== undefined) {
        waiter.timer = setTimeout(() => {
          this._connectWaiters = this._connectWaiters.filter((w) => w !== waiter);
          reject(new TimeoutError(`could not connect to touchd at ${this.url} within ${timeout} s`));
        }, timeout * 1000);
      }
      this._connectWaiters.push(waiter);
    });
  }

  /** Closes the connection for good: commands waiting reject with ConnectionLost, iteration
   * ends. */
  close() {
    if (this._closed) return;
    this._closed = true;
    clearTimeout(this._retryTimer);
    const socket = this._socket;
    if (socket) {
      this._detach(socket);
      this._connectionLost();
    }
    this._end(this._ended ?? new ConnectionLost('the client is closed'));
  }

  /** Closes the current connection as if the daemon had (for tests of reconnection): the
   * commands in flight fail, and with `reconnect` the client connects again. */
  dropConnection() {
    const socket = this._socket;
    if (!socket) return;
    this._detach(socket);
    this._lost();
  }

  /** Connected and greeted: commands can be sent. */
  get connected() {
    return this._canSend && !this._closed;
  }

  get closed() {
    return this._closed;
  }

  /** The last `seq` received (of the current daemon run). */
  get lastSeq() {
    return this._lastSeq;
  }

  /** The fields of the last successful `subscribe` (sent again after a reconnection). */
  get subscription() {
    return this._subscription;
  }

  // Messages

  /** Calls `listener(message)` for each message and event; returns the function that removes
   * it. With the default `queue: 'auto'`, messages are not kept for nextMessage() while a
   * listener is registered. */
  onMessage(listener) {
    this._listeners.add(listener);
    this._start();
    return () => this._listeners.delete(listener);
  }

  /** The next message or event; null after `timeout` seconds without one (null: wait for
   * ever). Rejects with ConnectionLost once the connection is gone for good and every message
   * before it was read. */
  nextMessage(timeout = null) {
    this._start();
    if (this._queue.length) return Promise.resolve(this._queue.shift());
    if (this._ended) return Promise.reject(this._ended);
    return new Promise((resolve, reject) => {
      const reader = { resolve, reject, timer: null };
      if (timeout !== null && timeout !== undefined) {
        reader.timer = setTimeout(() => {
          this._readers = this._readers.filter((r) => r !== reader);
          resolve(null);
        }, timeout * 1000);
      }
      this._readers.push(reader);
    });
  }

  /** Yields messages and events until `timeout` seconds pass without one (null: for ever) or
   * the connection is gone for good (then it ends, or throws ConnectionLost if the client was
   * not closed). */
  async *messages(timeout = null) {
    for (;;) {
      let message;
      try {
        message = await this.nextMessage(timeout);
      } catch (error) {
        if (this._closed && error instanceof ConnectionLost) return;
        throw error;
      }
      if (message === null) return;
      yield message;
    }
  }

  [Symbol.asyncIterator]() {
    return this.messages();
  }

  // Commands

  /** Sends any command with `fields` as the protocol names them; resolves to its reply. */
  send(cmd, fields = {}, { timeout } = {}) {
    return this.request(cmd, fields, timeout === undefined ? this.timeout : timeout);
  }

  /** Sends a command; `timeout` in seconds (null: none). */
  request(cmd, fields = {}, timeout = this.timeout) {
    if (this._closed) return Promise.reject(new ConnectionLost('the client is closed'));
    try {
      encodeCommand(cmd, 0, fields); // checks the fields before anything is registered
    } catch (error) {
      return Promise.reject(error);
    }
    this._start();
    return new Promise((resolve, reject) => {
      const command = { cmd, fields: { ...fields }, internal: false, resolve, reject, timer: null, id: null };
      if (timeout !== null && timeout !== undefined) {
        command.timer = setTimeout(() => {
          if (command.id === null) {
            this._waitingToSend = this._waitingToSend.filter((c) => c !== command);
            reject(new TimeoutError(`not connected to touchd at ${this.url} within ${timeout} s`));
          } else {
            command.abandoned = true;
            reject(new TimeoutError(`no answer from touchd to '${cmd}' within ${timeout} s`));
          }
        }, timeout * 1000);
      }
      if (this._ended && !this._canSend) {
        clearTimeout(command.timer);
        reject(new ConnectionLost(this._ended.message));
      } else if (this._canSend) {
        this._sendCommand(command);
      } else {
        this._waitingToSend.push(command);
      }
    });
  }

  ping() {
    return this.request('ping');
  }

  /** Replaces the filter: `types` (absent: actions only), `actions`, `views` (absent or []: all),
   * each a string or a list; `overflow` 'disconnect' (default) or 'skip'; `coalesced`, `predicted`
   * (booleans) add those lists to touches messages. Sent again after each reconnection. */
  subscribe({ types, actions, views, overflow, coalesced, predicted } = {}) {
    const fields = {};
    if (types !== undefined && types !== null) fields.types = names(types);
    if (actions !== undefined && actions !== null) fields.actions = names(actions);
    if (views !== undefined && views !== null) fields.views = names(views);
    if (overflow !== undefined && overflow !== null) fields.overflow = overflow;
    if (coalesced !== undefined && coalesced !== null) fields.coalesced = coalesced;
    if (predicted !== undefined && predicted !== null) fields.predicted = predicted;
    return this.request('subscribe', fields);
  }

  /** `set` on a view: `{hidden: true}`, `{alpha: 0.5}`, `{frame: {x, y, width, height}}`,
   * `{contentOffset: {x, y}}`, `{selectedSegmentIndex: 1}`… (the protocol's names). */
  setView(view, fields = {}) {
    return this.request('set', { view, ...fields });
  }

  /** `set` on a window: `rotation` (0, 90, 180, 270), `calibration` (6 numbers), `size`
   * ({width, height} or [width, height]), `voiceOver` (true or false). */
  setWindow(window, { rotation, calibration, size, voiceOver } = {}) {
    const fields = { window };
    if (voiceOver !== undefined) fields.voiceOver = voiceOver;
    if (rotation !== undefined) fields.rotation = rotation;
    if (calibration !== undefined) fields.calibration = Array.from(calibration);
    if (size !== undefined) fields.size = Array.isArray(size) ? { width: size[0], height: size[1] } : size;
    return this.request('set', fields);
  }

  /** `announce`: VoiceOver says `text` in `window` (the first when absent); the reply's `spoken`
   * is false where VoiceOver is off. */
  announce(text, { window } = {}) {
    const fields = { text };
    if (window !== undefined) fields.window = window;
    return this.request('announce', fields);
  }

  /** `signature`: the signature drawn on the signature view `view` (its strokes, bounds and
   * duration in the reply, and a `signature` message to its subscribers), or, with `clear`, forgotten. */
  signature(view, { clear = false } = {}) {
    return this.request('signature', { view, do: clear ? 'clear' : 'get' });
  }

  ignoreInteraction(value) {
    return this.request('ignoreInteraction', { value });
  }

  reload() {
    return this.request('reload');
  }

  status() {
    return this.request('status');
  }

  /** `scene`: replaces the running scene with `scene` (the scene format as an object). */
  pushScene(scene) {
    return this.request('scene', { scene });
  }

  /** `update`: `op` 'add', 'replace' or 'remove'; `view` or `recognizer` (an object for add and
   * replace, an id for remove); `parent` and `index` with add. */
  update(op, { view, recognizer, parent, index } = {}) {
    const fields = { op };
    if (view !== undefined) fields.view = view;
    if (recognizer !== undefined) fields.recognizer = recognizer;
    if (parent !== undefined) fields.parent = parent;
    if (index !== undefined) fields.index = index;
    return this.request('update', fields);
  }

  /** Collects one touch per target ([x, y] or {x, y}) and resolves to the fitted matrix; waits
   * up to the daemon's `timeout` (default 120 s) plus the client's. */
  calibrate(window, targets, { timeout } = {}) {
    const fields = { window, targets: Array.from(targets, (t) => (Array.isArray(t) ? [t[0], t[1]] : [t.x, t.y])) };
    if (timeout !== undefined) fields.timeout = timeout;
    const wait = this.timeout === null ? null : (timeout ?? 120) + this.timeout;
    return this.request('calibrate', fields, wait);
  }

  // The connection

  get _canSend() {
    return this._state === RESUBSCRIBING || this._state === READY;
  }

  _start() {
    if (this._started || this._closed) return;
    this._started = true;
    this._attempt();
  }

  _attempt() {
    this._retryTimer = null;
    if (this._closed || this._socket) return;
    let socket;
    try {
      socket = new this.WebSocket(this.url);
    } catch (error) {
      // A malformed URL: no attempt can succeed.
      this._end(new ConnectionLost(`cannot connect to touchd at ${this.url}: ${error.message}`));
      return;
    }
    this._socket = socket;
    this._state = AWAIT_HELLO;
    this._refusal = null;
    this._attemptsSinceHello += 1;
    socket.binaryType = 'arraybuffer';
    socket.onmessage = (event) => {
      if (this._socket === socket) this._receive(event.data);
    };
    socket.onclose = (event) => {
      if (this._socket !== socket) return;
      this._detach(socket);
      this._lost(event);
    };
    socket.onerror = () => {
      // Browsers follow an error with a close event; Node 20's WebSocket may not, after a failed
      // connection attempt: the connection is gone either way.
      if (this._socket !== socket) return;
      this._detach(socket);
      this._lost({});
    };
    this._helloTimer = setTimeout(() => {
      if (this._socket !== socket || this._state !== AWAIT_HELLO) return;
      this._detach(socket);
      this._lost({ reason: `no hello within ${this.helloTimeout} s` });
    }, this.helloTimeout * 1000);
  }

  _detach(socket) {
    socket.onmessage = socket.onclose = socket.onerror = null;
    clearTimeout(this._helloTimer);
    try {
      socket.close(1000);
    } catch {
      // already closing
    }
    if (this._socket === socket) this._socket = null;
  }

  /** The connection closed (or could not be made): the commands in flight fail. */
  _lost(event = {}) {
    const hadHello = this._canSend;
    const refusal = this._refusal;
    this._refusal = null;
    this._connectionLost();
    if (this._closed) return;
    if (refusal && !refusal.retry) {
      this._end(refusal.error);
      return;
    }
    this._failures = hadHello ? 1 : this._failures + 1;
    if (!this.reconnect) {
      const why = hadHello
        ? `the connection to touchd at ${this.url} closed`
        : `cannot connect to touchd at ${this.url}${event.code ? ` (close code ${event.code})` : ''}`;
      this._end(refusal?.error ?? new ConnectionLost(why));
      return;
    }
    const delay = this.backoff.delay(this._failures, this.random);
    this._retryTimer = setTimeout(() => this._attempt(), delay * 1000);
  }

  _connectionLost() {
    if (this._state === DISCONNECTED) return;
    for (const [id, command] of this._pending) {
      clearTimeout(command.timer);
      if (!command.internal && !command.abandoned) {
        command.reject(new ConnectionLost(`the connection to touchd closed before the answer to '${command.cmd}' (id ${id})`));
      }
    }
    this._pending.clear();
    this._resubscribeId = null;
    this._reconnected = null;
    this._state = DISCONNECTED;
  }

  /** No more messages will come (closed, a refusal, or lost without `reconnect`). */
  _end(error) {
    this._ended = this._ended ?? error;
    this._state = DISCONNECTED;
    for (const command of this._waitingToSend) {
      clearTimeout(command.timer);
      command.reject(this._closed ? new ConnectionLost('the client is closed') : this._ended);
    }
    this._waitingToSend = [];
    for (const waiter of this._connectWaiters) {
      clearTimeout(waiter.timer);
      waiter.reject(this._ended);
    }
    this._connectWaiters = [];
    if (!this._queue.length) {
      for (const reader of this._readers) {
        clearTimeout(reader.timer);
        reader.reject(this._ended);
      }
      this._readers = [];
    }
  }

  _sendCommand(command) {
    const id = this._nextId++;
    command.id = id;
    this._pending.set(id, command);
    try {
      this._socket.send(encodeCommand(command.cmd, id, command.fields));
    } catch {
      // The close event follows and fails the command.
    }
    return id;
  }

  _internal(cmd, fields) {
    return this._sendCommand({ cmd, fields, internal: true, resolve() {}, reject() {}, timer: null, id: null });
  }

  // Input

  _receive(data) {
    if (typeof data !== 'string') {
      console.warn('touchd sent a binary frame: ignored');
      return;
    }
    for (const line of data.split('\n')) {
      if (!line.trim()) continue;
      let object;
      try {
        object = JSON.parse(line);
      } catch {
        console.warn('touchd sent a frame that is not JSON:', line.slice(0, 200));
        continue;
      }
      if (object === null || typeof object !== 'object' || Array.isArray(object)) {
        console.warn('touchd sent a frame that is not a JSON object:', line.slice(0, 200));
        continue;
      }
      this._message(object);
      if (this._state === DISCONNECTED) break;
    }
  }

  _message(message) {
    if (this._state === AWAIT_HELLO) {
      this._beforeHello(message);
      return;
    }
    if (message.type === 'reply' || message.type === 'error') {
      this._answer(message);
      return;
    }
    const seq = PIPELINE_TYPES.includes(message.type) ? message.seq : undefined;
    if (this._state === RESUBSCRIBING && (seq !== undefined || message.type === 'trace')) {
      // Published under the default filter before the subscription is back: dropped, and
      // counted in the missed event that follows.
      return;
    }
    if (isInteger(seq)) {
      if (this._missedFrom !== null) {
        const last = this._missedFrom;
        this._missedFrom = null;
        this._deliver({ type: 'missed', count: Math.max(0, seq - last - 1), lastSeq: last, seq, exact: this._exact });
      }
      this._lastSeq = seq;
      this._seqInstance = this.hello?.instance ?? null;
    }
    this._deliver(message);
  }

  _beforeHello(message) {
    if (message.type === 'error') {
      // Refused: access denied, an origin not allowed, too many clients. The daemon closes.
      const retry = String(message.message).includes('too many clients');
      this._refusal = { error: new TouchdError(message.message, { id: message.id ?? null }), retry };
      console.warn(`touchd at ${this.url} refused the connection: ${message.message}`);
      const socket = this._socket;
      if (socket) {
        this._detach(socket);
        this._lost();
      }
      return;
    }
    if (message.type !== 'hello') {
      console.warn(`touchd sent ${JSON.stringify(message).slice(0, 200)} before its hello`);
      return;
    }
    clearTimeout(this._helloTimer);
    const previous = this.hello;
    this.hello = message;
    this.connections += 1;
    this._failures = 0;
    const attempts = this._attemptsSinceHello;
    this._attemptsSinceHello = 0;
    if (previous === null) {
      this._seqInstance = message.instance ?? null;
      this._state = READY;
    } else {
      const restarted = message.instance == null || message.instance !== previous.instance;
      if (restarted) {
        this._lastSeq = null;
        this._missedFrom = null;
      } else if (this._lastSeq !== null && this._seqInstance === message.instance) {
        this._missedFrom = this._lastSeq;
      }
      this._seqInstance = message.instance ?? null;
      this._reconnected = {
        type: 'reconnected',
        restarted,
        instance: message.instance ?? null,
        previousInstance: previous.instance ?? null,
        hello: message,
        lastSeq: restarted ? null : this._lastSeq,
        attempts,
        resubscribeError: null,
      };
      if (this._subscription !== null) {
        this._state = READY;
        this._resubscribeId = this._internal('subscribe', this._subscription);
        this._state = RESUBSCRIBING;
      } else {
        this._state = READY;
        this._deliver(this._takeReconnected(null));
      }
    }
    for (const waiter of this._connectWaiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(message);
    }
    this._connectWaiters = [];
    const waiting = this._waitingToSend;
    this._waitingToSend = [];
    for (const command of waiting) this._sendCommand(command);
  }

  _takeReconnected(error) {
    const event = this._reconnected;
    this._reconnected = null;
    event.resubscribeError = error;
    return event;
  }

  _answer(message) {
    let id = message.id;
    if (message.type === 'error' && (id === null || id === undefined) && this._pending.size) {
      // An error the daemon could not tie to a command's id: it answers the oldest one waiting.
      id = this._pending.keys().next().value;
    }
    const command = isInteger(id) ? this._pending.get(id) : undefined;
    if (command === undefined) {
      this._deliver(message);
      return;
    }
    this._pending.delete(id);
    clearTimeout(command.timer);
    if (command.cmd === 'subscribe' && message.type === 'reply') {
      this._subscription = command.fields;
      this._exact = TouchdClient._filterIsEverything(message);
    }
    if (command.internal) {
      if (id === this._resubscribeId) {
        this._resubscribeId = null;
        this._state = READY;
        const error = message.type === 'error' ? message.message : null;
        if (error !== null) {
          console.warn(`touchd refused the subscription sent again after reconnecting: ${error}`);
          this._exact = false;
        }
        this._deliver(this._takeReconnected(error));
      }
      return;
    }
    if (command.abandoned) return;
    if (message.type === 'error') {
      command.reject(new TouchdError(message.message, { id: message.id ?? null, cmd: command.cmd }));
    } else {
      command.resolve(message);
    }
  }

  static _filterIsEverything(reply) {
    const types = reply.types ?? [];
    return (
      PIPELINE_TYPES.every((t) => types.includes(t)) &&
      !(reply.actions && reply.actions.length) &&
      !(reply.views && reply.views.length)
    );
  }

  _deliver(message) {
    for (const listener of [...this._listeners]) {
      try {
        listener(message);
      } catch (error) {
        console.error('a touchd message listener threw:', error);
      }
    }
    const reader = this._readers.shift();
    if (reader) {
      clearTimeout(reader.timer);
      reader.resolve(message);
      return;
    }
    const keep = this.queueMode === true || (this.queueMode === 'auto' && this._listeners.size === 0);
    if (!keep) return;
    this._queue.push(message);
    if (this._queue.length > this.bufferLimit) {
      this._queue.shift();
      if (this.droppedMessages++ === 0) {
        console.warn(`touchd client: more than ${this.bufferLimit} messages unread; dropping the oldest`);
      }
    }
  }
}
