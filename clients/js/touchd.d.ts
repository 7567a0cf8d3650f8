// Type declarations of touchd.js, the JavaScript client of touchd's WebSocket endpoint.
// The messages are the protocol's (docs/protocol.md), field for field; keys a version does not
// declare may be present (later daemons may add some).

export const PIPELINE_TYPES: readonly ['action', 'touches', 'scroll', 'control', 'presses', 'idle', 'accessibility', 'stroke', 'signature'];
export const SUBSCRIBABLE_TYPES: readonly ['action', 'touches', 'scroll', 'control', 'presses', 'idle', 'accessibility', 'stroke', 'signature', 'trace'];
export const DEFAULT_URL: string;

/** A constructor of browser-style WebSockets: the global one, or the ws package's (8 or later). */
export type WebSocketConstructor = { new (url: string): WebSocket };
/** The WebSocket constructor a client uses without `options.WebSocket`: the global one, else (in
 * Node without one, such as Debian 12's Node 18) the ws package's, looked for with Node's require;
 * null when there is neither. */
export function defaultWebSocket(): WebSocketConstructor | null;

export type PipelineType = (typeof PIPELINE_TYPES)[number];
export type SubscribableType = (typeof SUBSCRIBABLE_TYPES)[number];

// Values

export interface Point {
  x: number;
  y: number;
}
export interface Size {
  width: number;
  height: number;
}
export interface Frame extends Point, Size {}
export interface WindowInfo {
  id: string;
  width: number;
  height: number;
}
export interface TouchPoint {
  id: number;
  view: string | null;
  phase: 'began' | 'moved' | 'stationary' | 'ended' | 'cancelled';
  x: number;
  y: number;
  tapCount?: number;
  /** The location in `view`'s own points, for a view inside zoomed content (window points are `x`, `y`). */
  locationInView?: Point;
  /** `direct` (a finger) or `pencil` (a pen's tip, docs/pens.md). */
  type?: 'direct' | 'pencil';
  /** A pencil's pressure, 0 to 4.166667 (UIKit's maximumPossibleForce for a pencil). */
  force?: number;
  /** A pencil's angle to the screen, radians (pi/2 perpendicular). */
  altitudeAngle?: number;
  /** A pencil's direction in the window, radians from +x towards +y. */
  azimuthAngle?: number;
  /** The pen's eraser end. */
  eraser?: boolean;
}
/** An entry of a touches message's `coalesced` (a kernel frame) or `predicted` list. */
export interface TouchSample {
  id: number;
  x: number;
  y: number;
  time: number;
}
export interface Press {
  id: number;
  type: string | null;
  key: string | null;
  phase: 'began' | 'stationary' | 'ended' | 'cancelled';
}

// Messages of the daemon

export interface Hello {
  type: 'hello';
  version: number;
  instance: string | null;
  windows: WindowInfo[];
  views?: number;
}

interface Pipeline {
  seq: number;
  time: number;
}

export interface Action extends Pipeline {
  type: 'action';
  action: string;
  /** tap, longPress, pan, swipe, pinch, rotation, screenEdgePan, or control. */
  gesture: string;
  /** began, changed, ended, cancelled (discrete gestures: ended); absent for controls. */
  state?: 'began' | 'changed' | 'ended' | 'cancelled';
  view: string | null;
  window: string | null;
  recognizer?: string;
  location?: Point;
  /** The location in the recognizer's view's own points, for a view inside zoomed content. */
  locationInView?: Point;
  numberOfTouches?: number;
  /** pan, screenEdgePan */
  translation?: Point;
  /** pan and screenEdgePan: points/s; pinch: scale/s; rotation: rad/s. */
  velocity?: Point | number;
  /** pinch */
  scale?: number;
  /** rotation, radians clockwise */
  rotation?: number;
  /** swipe */
  direction?: 'right' | 'left' | 'up' | 'down';
  /** hover (a pen): 0 touching to 1 at its farthest, and its angles in radians */
  zOffset?: number;
  altitudeAngle?: number;
  azimuthAngle?: number;
  /** controls: the UIControl.Event name, the control type, its value */
  event?: string;
  control?: string;
  value?: boolean | number;
  /** a tap or long press recognizing a press */
  press?: string;
}

export interface Touches extends Pipeline {
  type: 'touches';
  phase: 'began' | 'moved' | 'ended' | 'cancelled';
  view: string | null;
  window: string | null;
  touches: TouchPoint[];
  /** With `subscribe({coalesced: true})`: every kernel frame of the touches since their last message. */
  coalesced?: TouchSample[];
  /** With `subscribe({predicted: true})`: positions 8 and 16 ms ahead of the touches still down. */
  predicted?: TouchSample[];
}

export interface Scroll extends Pipeline {
  type: 'scroll';
  phase:
    | 'willBeginDragging'
    | 'didScroll'
    | 'willEndDragging'
    | 'didEndDragging'
    | 'willBeginDecelerating'
    | 'didEndDecelerating'
    | 'didEndScrollingAnimation';
  view: string;
  window: string;
  contentOffset: Point;
  velocity?: Point;
  targetContentOffset?: Point;
  willDecelerate?: boolean;
}

export interface Control extends Pipeline {
  type: 'control';
  control: 'button' | 'switch' | 'slider' | 'stepper' | 'segmented' | 'pageControl';
  view: string;
  window: string;
  enabled: boolean;
  highlighted: boolean;
  selected: boolean;
  on?: boolean;
  value?: number;
  selectedSegmentIndex?: number;
  currentPage?: number;
}

export interface Presses extends Pipeline {
  type: 'presses';
  phase: 'began' | 'ended' | 'cancelled';
  view: string | null;
  window: string | null;
  presses: Press[];
}

export interface Idle extends Pipeline {
  type: 'idle';
  state: 'idle' | 'active';
  lastInput: number | null;
  swallowed: boolean;
}

/** What VoiceOver did in a window (docs/accessibility.md). */
export interface Accessibility extends Pipeline {
  type: 'accessibility';
  event:
    | 'focus' | 'activate' | 'adjust' | 'scroll' | 'announce' | 'pause' | 'resume' | 'readAll' | 'escape'
    | 'magicTap' | 'passthrough' | 'boundary' | 'position' | 'voiceOver';
  window: string;
  view?: string;
  segment?: number;
  label?: string;
  value?: string;
  traits?: string[];
  spoken?: string;
  on?: boolean;
}

/** A kernel frame of a signature stroke, in the signature view's points (docs/pens.md). */
export interface StrokePoint {
  x: number;
  y: number;
  time: number;
  /** A pencil's force (0 to 4.166667) and angles (radians); absent for a finger. */
  force?: number;
  altitudeAngle?: number;
  azimuthAngle?: number;
}
/** A stroke on a signature view ended: a point per kernel frame. */
export interface Stroke extends Pipeline {
  type: 'stroke';
  view: string;
  window: string;
  touchType: 'pencil' | 'direct';
  points: StrokePoint[];
}
/** A signature view's whole signature, as a client asked for it (`signature` command). */
export interface Signature extends Pipeline {
  type: 'signature';
  view: string;
  window: string;
  strokes: { touchType: 'pencil' | 'direct'; points: StrokePoint[] }[];
  bounds: { x: number; y: number; width: number; height: number } | null;
  duration: number;
}

/** One step of delivery and arbitration (docs/explain.md); takes no seq. */
export interface Trace {
  type: 'trace';
  time: number;
  event:
    | 'recognizer'
    | 'waiting'
    | 'touchBegan'
    | 'touchSwallowed'
    | 'held'
    | 'released'
    | 'cancelledInView'
    | 'pressBegan'
    | 'controlTracking'
    | 'voiceOverGesture';
  [key: string]: unknown;
}

export interface Gap {
  type: 'gap';
  skipped: number;
}
export interface Reloaded {
  type: 'reloaded';
  source: 'file' | 'client';
  windows: WindowInfo[];
  views: number;
}
export interface Updated {
  type: 'updated';
  op: 'add' | 'replace' | 'remove';
  view?: string;
  recognizer?: string;
  parent: string | null;
  index: number | null;
  views: number;
  recognizers: number;
}
export interface WindowChanged {
  type: 'windowChanged';
  window: string;
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  calibration: number[];
}
export interface Calibration {
  type: 'calibration';
  window: string;
  target: number;
  targets: number;
  at: Point;
  touched: Point;
}
export interface Shutdown {
  type: 'shutdown';
}
/** A reply nobody waited for, or an error the daemon tied to no command. */
export interface ReplyMessage {
  type: 'reply';
  id: unknown;
  ok: true;
  [key: string]: unknown;
}
export interface ErrorMessage {
  type: 'error';
  id: unknown;
  message: string;
}
/** A message of a type this version does not know. It is delivered as it came; it is left out
 * of `Message` so that a check of `type` narrows the union. */
export interface UnknownMessage {
  type: string;
  [key: string]: unknown;
}

// The client's own events

/** The client lost its connection and made a new one (delivered once it subscribed again). */
export interface Reconnected {
  type: 'reconnected';
  /** The daemon is another run (its hello's instance changed): seq starts again at 1. */
  restarted: boolean;
  instance: string | null;
  previousInstance: string | null;
  hello: Hello;
  lastSeq: number | null;
  /** Connection attempts it took. */
  attempts: number;
  /** The daemon's error if the last subscribe could not be sent again (its default filter is
   * then in effect). */
  resubscribeError: string | null;
}

/** Messages missed while disconnected from the same daemon run, counted from seq: just before
 * the first message that carries one. Exact when subscribed to every pipeline type without
 * actions or views filters; otherwise an upper bound. */
export interface Missed {
  type: 'missed';
  count: number;
  lastSeq: number;
  seq: number;
  exact: boolean;
}

export type PipelineMessage = Action | Touches | Scroll | Control | Presses | Idle | Accessibility | Stroke | Signature;
export type Message =
  | PipelineMessage
  | Trace
  | Gap
  | Reloaded
  | Updated
  | WindowChanged
  | Calibration
  | Shutdown
  | ReplyMessage
  | ErrorMessage
  | Reconnected
  | Missed;

// Replies

export interface Reply {
  type: 'reply';
  id: number;
  ok: true;
  [key: string]: unknown;
}
export interface SubscribeReply extends Reply {
  types: SubscribableType[];
  actions: string[];
  views: string[];
  overflow: 'disconnect' | 'skip';
  coalesced: boolean;
  predicted: boolean;
}
export interface SceneReply extends Reply {
  windows: WindowInfo[];
  views: number;
  recognizers: number;
}
export interface UpdateReply extends Reply {
  op: 'add' | 'replace' | 'remove';
  view?: string;
  recognizer?: string;
  parent: string | null;
  index: number | null;
  views: number;
  recognizers: number;
}
export interface WindowReply extends Reply {
  window: string;
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
  calibration: number[];
}
export interface IgnoreReply extends Reply {
  ignoring: number;
}
export interface StatusReply extends Reply {
  devices: { path: string; name: string; window: string | null; keysWindow: string | null; grabbed: boolean }[];
  clients: number;
  counters: Record<string, number>;
  windows: WindowInfo[];
  touchesDown: number;
  ignoring: number;
  tracing: boolean;
  scene: string;
  [key: string]: unknown;
}
export interface CalibrateReply extends Reply {
  matrix: number[];
  rmsError: number;
  maxError: number;
  points: { at: Point; landed: Point; error: number }[];
  warning: string | null;
  device: { path: string; name: string } | null;
  udevMatrix: number[] | null;
}

// Errors

/** The daemon answered a command with an error; `message` is its message word for word. */
export class TouchdError extends Error {
  constructor(message: string, options?: { id?: unknown; cmd?: string | null });
  readonly id: unknown;
  readonly cmd: string | null;
}
/** The connection closed before the answer (the command is never sent again), or is gone for
 * good (closed, refused, or lost without reconnect). */
export class ConnectionLost extends Error {}
/** No answer, or no connection, within the command's timeout. */
export class TimeoutError extends Error {}

// The client

export interface BackoffOptions {
  /** Seconds before the first retry (0.05). */
  initial?: number;
  /** The longest delay, seconds (2). */
  maximum?: number;
  /** Growth per failure (2). */
  factor?: number;
  /** Variation, a fraction (0.2: ±20 %). */
  jitter?: number;
}
export class Backoff implements Required<BackoffOptions> {
  constructor(options?: BackoffOptions);
  initial: number;
  maximum: number;
  factor: number;
  jitter: number;
  delay(failures: number, random?: () => number): number;
}

export interface ClientOptions {
  url?: string;
  /** Connect again when the connection closes or cannot be made (true). */
  reconnect?: boolean;
  backoff?: BackoffOptions | Backoff;
  /** Seconds a command waits for its answer (30); null: no limit. */
  timeout?: number | null;
  /** Seconds connect() keeps trying (null: no limit). */
  connectTimeout?: number | null;
  /** Seconds a new connection may take to greet (5). */
  helloTimeout?: number;
  /** Messages kept for nextMessage() and iteration (4096); older ones are dropped past it. */
  bufferLimit?: number;
  /** Keep messages for nextMessage() and iteration: 'auto' (only while no onMessage listener is
   * registered), true or false. */
  queue?: 'auto' | boolean;
  /** The WebSocket constructor (default: defaultWebSocket(), the global one, else in Node the ws
   * package). */
  WebSocket?: WebSocketConstructor;
  random?: () => number;
}

export interface SubscribeOptions {
  /** Absent: actions only. */
  types?: SubscribableType | readonly SubscribableType[] | Iterable<SubscribableType>;
  /** Absent or empty: all. */
  actions?: string | readonly string[] | Iterable<string>;
  /** Absent or empty: all. */
  views?: string | readonly string[] | Iterable<string>;
  overflow?: 'disconnect' | 'skip';
  /** Touches messages carry `coalesced`. */
  coalesced?: boolean;
  /** Touches messages carry `predicted`. */
  predicted?: boolean;
}

export interface SetViewFields {
  hidden?: boolean;
  alpha?: number;
  userInteractionEnabled?: boolean;
  frame?: Frame;
  contentOffset?: Point;
  animated?: boolean;
  contentSize?: Size;
  scrollEnabled?: boolean;
  enabled?: boolean;
  selected?: boolean;
  on?: boolean;
  value?: number;
  selectedSegmentIndex?: number;
  currentPage?: number;
  firstResponder?: boolean;
  [key: string]: unknown;
}

/** A scene of the scene format (docs/scene.md) as an object. */
export interface Scene {
  version: 1;
  windows: SceneWindow[];
  [key: string]: unknown;
}
export interface SceneWindow {
  id: string;
  size: Size;
  devices?: string[];
  grab?: boolean;
  /** Forward the touches no recognizer claims to a virtual touchscreen (docs/forward.md). */
  forward?: { name?: string };
  views?: SceneView[];
  [key: string]: unknown;
}
export interface SceneView {
  id: string;
  frame: Frame;
  recognizers?: SceneRecognizer[];
  views?: SceneView[];
  accessibility?: SceneAccessibility;
  [key: string]: unknown;
}
/** A view's `accessibility:` (docs/scene.md, "Accessibility"): UIKit's UIAccessibility properties. */
export interface SceneAccessibility {
  /** accessibilityLabel. */
  label?: string;
  /** accessibilityHint, said after a pause. */
  hint?: string;
  /** accessibilityValue. */
  value?: string;
  /** UIAccessibilityTraits names: button, link, header, image, staticText, adjustable, selected,
   * notEnabled, searchField, summaryElement… */
  traits?: string[];
  /** isAccessibilityElement. */
  element?: boolean;
  /** accessibilityElementsHidden: the view and its subviews are no elements. */
  hidden?: boolean;
  /** accessibilityViewIsModal. */
  modal?: boolean;
  /** accessibilityActivationPoint, in the view's points. */
  activationPoint?: Point;
  /** accessibilityFrame, in the view's points. */
  frame?: Frame;
}
export interface SceneRecognizer {
  id: string;
  type: 'tap' | 'longPress' | 'pan' | 'swipe' | 'pinch' | 'rotation' | 'screenEdgePan';
  action: string;
  [key: string]: unknown;
}

export class TouchdClient implements AsyncIterable<Message> {
  constructor(url?: string | URL, options?: ClientOptions);
  constructor(options: ClientOptions);
  readonly url: string;
  reconnect: boolean;
  timeout: number | null;
  backoff: Backoff;
  /** The hello of the current (or last) connection; null before the first. */
  readonly hello: Hello | null;
  /** Connections that reached hello. */
  readonly connections: number;
  /** Messages dropped because more than bufferLimit waited unread. */
  readonly droppedMessages: number;
  readonly connected: boolean;
  readonly closed: boolean;
  /** The last seq received from the current daemon run. */
  readonly lastSeq: number | null;
  /** The fields of the last successful subscribe (sent again after a reconnection). */
  readonly subscription: Record<string, unknown> | null;

  connect(timeout?: number | null): Promise<Hello>;
  close(): void;
  /** Closes the current connection as if the daemon had (for tests). */
  dropConnection(): void;

  onMessage(listener: (message: Message) => void): () => void;
  nextMessage(timeout?: number | null): Promise<Message | null>;
  messages(timeout?: number | null): AsyncGenerator<Message, void, undefined>;
  [Symbol.asyncIterator](): AsyncIterator<Message>;

  send(cmd: string, fields?: Record<string, unknown>, options?: { timeout?: number | null }): Promise<Reply>;
  request(cmd: string, fields?: Record<string, unknown>, timeout?: number | null): Promise<Reply>;
  ping(): Promise<Reply>;
  subscribe(options?: SubscribeOptions): Promise<SubscribeReply>;
  setView(view: string, fields?: SetViewFields): Promise<Reply>;
  setWindow(
    window: string,
    fields?: {
      rotation?: 0 | 90 | 180 | 270;
      calibration?: Iterable<number>;
      size?: Size | [number, number];
      voiceOver?: boolean;
    },
  ): Promise<WindowReply>;
  announce(text: string, fields?: { window?: string }): Promise<Reply>;
  signature(view: string, fields?: { clear?: boolean }): Promise<Reply>;
  ignoreInteraction(value: boolean): Promise<IgnoreReply>;
  reload(): Promise<Reply>;
  status(): Promise<StatusReply>;
  pushScene(scene: Scene | Record<string, unknown>): Promise<SceneReply>;
  update(
    op: 'add' | 'replace' | 'remove',
    fields: { view?: SceneView | string; recognizer?: SceneRecognizer | string; parent?: string; index?: number },
  ): Promise<UpdateReply>;
  calibrate(
    window: string,
    targets: Iterable<[number, number] | Point>,
    options?: { timeout?: number },
  ): Promise<CalibrateReply>;
}

export function encodeCommand(cmd: string, id: unknown, fields?: Record<string, unknown>): string;

// Scenes pushed

/** The fields of one `update` command. */
export type SceneUpdate =
  | { op: 'add'; view: SceneView; parent: string; index: number }
  | { op: 'add'; recognizer: SceneRecognizer; parent: string }
  | { op: 'replace'; view: SceneView }
  | { op: 'replace'; recognizer: SceneRecognizer }
  | { op: 'remove'; view: string }
  | { op: 'remove'; recognizer: string };

/** The update commands that make the daemon's scene `from` into `to`, only the subtrees that
 * changed, in the order to send them; [] for equal scenes; null when only a whole scene push can
 * (the scene's or a window's own keys changed, windows or top-level views reordered). */
export function sceneUpdates(from: Scene | null, to: Scene): SceneUpdate[] | null;
/** JSON with every object's keys sorted. */
export function canonicalJSON(value: unknown): string;

export type ScenePushResult =
  | { accepted: true; reply: SceneReply | UpdateReply; updates: SceneUpdate[] | null }
  | { accepted: false; error: TouchdError | ConnectionLost };

/** Keeps the daemon's scene equal to the last one pushed: the whole scene first (and after
 * reset()), then only the subtrees that changed (sceneUpdates()), so touches on the rest go on. A
 * refused update is followed by the whole scene; a refused push leaves the daemon the scene it
 * had. */
export class SceneSync {
  constructor(client: TouchdClient);
  readonly client: TouchdClient;
  /** The last scene accepted; the reply to that push's last command; the last refusal (null once
   * a later push is accepted). */
  readonly scene: Scene | null;
  readonly reply: SceneReply | UpdateReply | null;
  readonly error: TouchdError | null;
  /** The update commands of the last accepted push; null when it sent the whole scene. */
  readonly updates: SceneUpdate[] | null;
  /** Pushes accepted, whole or by updates. */
  readonly pushes: number;
  /** Null when nothing was sent (the daemon has this scene, or refused it last). */
  push(scene: Scene): Promise<ScenePushResult | null>;
  /** The daemon's scene changed otherwise: the next push is whole. */
  reset(): void;
}

// The scene of the page

/** The view keys data-touchd-* attributes may give; the others are the recognizer's parameters. */
export const VIEW_KEYS: readonly string[];
/** The elements that are views: `[data-touchd-view],[data-touchd-type],[data-touchd-recognizers]`. */
export const VIEW_SELECTOR: string;
/** An attribute's value: JSON when it parses as JSON, else the text. */
export function attributeValue(text: string): unknown;
/** The view (without frame) that an element's dataset describes. */
export function viewFromDataset(id: string, dataset: Record<string, string | undefined>): Omit<SceneView, 'frame'>;

export interface PageSceneOptions {
  /** The element whose marked descendants (and itself) are the views (document.body). */
  root?: Element;
  /** The window's id ('main'). */
  window?: string;
  /** The window's devices (['*']). */
  devices?: string[];
  /** EVIOCGRAB the window's touchscreens (false). Not with `forward`. */
  grab?: boolean;
  /** The window's `forward:` (off): true for the default name, the virtual touchscreen's name, or
   * {name}. The touches no recognizer claims go on to the compositor (docs/forward.md). */
  forward?: boolean | string | { name?: string };
  /** More keys of the window (rotation, calibration, frameRate, keys, firstResponder); not id,
   * size, devices, grab, forward or views. */
  windowKeys?: Record<string, unknown>;
  /** Top-level keys of the scene (stuckTouchTimeout, idle). */
  sceneKeys?: Record<string, unknown>;
  /** The window's size (default: the viewport's, innerWidth × innerHeight). */
  size?: Size;
}

/** The daemon's scene built from the page: pushed at start and again when the layout changes;
 * each action is dispatched on its view's element as a CustomEvent named after the action, and
 * every pipeline message with a view as a `touchd` CustomEvent (both bubble; `detail` is the
 * message). `touchd-scene` and `touchd-scene-error` events on the root tell each push's outcome. */
export class PageScene {
  constructor(client: TouchdClient, options?: PageSceneOptions);
  /** The `accessibility:` the element's WAI-ARIA role, states and properties give its view (the
   * accessible name as `label`, the description as `hint`, aria-valuetext or aria-valuenow as
   * `value`, the role's traits with `selected` and `notEnabled`, aria-hidden as `hidden`,
   * aria-modal as `modal`); null when they give none. `within`: the element of the view it is
   * in, where looking for an aria-hidden ancestor stops (null: the document). */
  static accessibilityOf(element: Element, within?: Element | null): SceneAccessibility | null;
  readonly client: TouchdClient;
  /** The window's `forward:`, or null. */
  readonly forward: { name?: string } | null;
  /** The last scene accepted, the reply to that push's last command, and the last refusal (null
   * once a later push is accepted). */
  readonly scene: Scene | null;
  readonly reply: SceneReply | UpdateReply | null;
  readonly error: TouchdError | null;
  /** The update commands of the last accepted push; null when it pushed the whole scene. */
  readonly updates: SceneUpdate[] | null;
  /** Pushes accepted, whole or by updates. */
  readonly pushes: number;
  start(): Promise<SceneReply | UpdateReply | null>;
  stop(): void;
  build(): Scene;
  /** `force`: the whole scene, even if it did not change. */
  refresh(options?: { force?: boolean }): Promise<SceneReply | UpdateReply | null>;
  elementFor(viewId: string): Element | null;
}

declare global {
  interface HTMLElementEventMap {
    touchd: CustomEvent<PipelineMessage>;
    'touchd-scene': CustomEvent<{ scene: Scene; reply: SceneReply | UpdateReply; updates: SceneUpdate[] | null }>;
    'touchd-scene-error': CustomEvent<{ scene: Scene; error: TouchdError }>;
  }
}
