// page-scene.js: the daemon's scene kept equal to a web page's (ES module, no build step; touchd.js
// exports all of it too, so `import { PageScene } from './touchd.js'` works as before).
//
// - SceneSync: keeps the daemon's scene equal to the last one given it, pushing the whole scene
//   first and then only the subtrees that changed (`update`: scene-diff.js), so that touches on
//   the views that did not change go on.
// - PageScene: builds the daemon's scene from the page's elements marked with data-touchd-*
//   attributes, pushes it again (through SceneSync) when the layout changes, and dispatches each
//   action as a DOM CustomEvent on its element (clients/js/README.md).
// - accessibilityOf: a view's `accessibility:` (UIKit's UIAccessibility properties) from its
//   element's WAI-ARIA role, states and properties, as the browser gives them to a screen reader
//   (through touchd.js: PageScene.accessibilityOf).

import { canonicalJSON, sceneUpdates } from './scene-diff.js';
import { PIPELINE_TYPES, TouchdError } from './touchd.js';

// Scenes pushed

/**
 * Keeps the daemon's scene equal to the last scene given to push(): the first push (and the first
 * after reset(): a reconnection, a reload of the scene file) sends the whole scene (`scene`);
 * later ones send only what changed, as `update` commands (sceneUpdates()), so that a touch on a
 * view that did not change goes on. When the windows or the scene's own keys changed, the whole
 * scene is sent. When the daemon refuses an update (a step between the two scenes it cannot take),
 * the whole scene is sent instead; when it refuses that too, the scene it had before is pushed
 * back if updates of this push had changed it already, so the daemon keeps the last scene accepted.
 * Pushes are sent one after another, in the order made.
 */
export class SceneSync {
  constructor(client) {
    this.client = client;
    /** The last scene the daemon accepted (it runs it), the reply to the last command of that
     * push (a `scene` reply, or the last `update` reply), and the last refusal (a TouchdError;
     * null again once a later push is accepted). */
    this.scene = null;
    this.reply = null;
    this.error = null;
    /** The update commands of the last accepted push (their fields); null when it sent the whole
     * scene. */
    this.updates = null;
    /** Pushes accepted (whole or by updates). */
    this.pushes = 0;
    this._known = false; // the daemon runs this.scene
    this._acceptedText = null;
    this._failedText = null;
    this._chain = Promise.resolve();
  }

  /** The daemon's scene may have changed otherwise (a reconnection, a reload): the next push is
   * the whole scene, sent even if it did not change. */
  reset() {
    this._known = false;
    this._failedText = null;
  }

  /** Pushes `scene`; resolves to `{accepted: true, reply, updates}` (updates: the update commands
   * sent, null when the whole scene was), `{accepted: false, error}` when the daemon refused it
   * (a TouchdError, also kept in `error`) or the connection was lost first (ConnectionLost; the
   * push after the reconnection is whole), or null when nothing was sent: the daemon has this
   * scene already, or refused it last (a refused scene is not sent again until it changes). No
   * timeout: a push made before the daemon is up waits for it. */
  push(scene) {
    const result = this._chain.then(() => this._push(scene));
    this._chain = result.catch(() => {});
    return result;
  }

  async _push(scene) {
    const text = canonicalJSON(scene);
    if (this._known && (text === this._acceptedText || text === this._failedText)) return null;
    // Updates only over a connection the daemon's scene is known on: a command waiting for a
    // connection could reach a restarted daemon, whose scene is its file's.
    const steps = this._known && this.client.connected ? sceneUpdates(this.scene, scene) : null;
    let applied = 0;
    try {
      if (steps !== null) {
        try {
          let reply = null;
          for (const step of steps) {
            reply = await this.client.request('update', step, null);
            applied += 1;
          }
          return this._accepted(scene, text, reply, steps);
        } catch (error) {
          if (!(error instanceof TouchdError)) throw error;
          // A step the daemon cannot take: the whole scene instead.
        }
      }
      const reply = await this.client.request('scene', { scene }, null);
      return this._accepted(scene, text, reply, null);
    } catch (error) {
      if (!(error instanceof TouchdError)) {
        this._known = false; // what reached the daemon is not known: the whole scene next time
        return { accepted: false, error };
      }
      this._failedText = text;
      this.error = error;
      if (applied > 0) await this._restore();
      return { accepted: false, error };
    }
  }

  _accepted(scene, text, reply, updates) {
    // A copy: the next push is compared with what the daemon took, even if the caller changes
    // its object in place.
    Object.assign(this, { scene: structuredClone(scene), reply, updates, error: null });
    this.pushes += 1;
    this._known = true;
    this._acceptedText = text;
    this._failedText = null;
    return { accepted: true, reply, updates };
  }

  /** Puts the last accepted scene back whole, after updates of a refused push changed the daemon's. */
  async _restore() {
    try {
      await this.client.request('scene', { scene: this.scene }, null);
    } catch {
      this._known = false;
    }
  }
}

// The scene of the page

/** The view keys an element may give as data-touchd-* attributes (other attributes are the
 * recognizer's parameters). */
export const VIEW_KEYS = Object.freeze([
  'hidden',
  'alpha',
  'userInteractionEnabled',
  'multipleTouchEnabled',
  'exclusiveTouch',
  'clipsToBounds',
  'hitOutset',
  'touches',
  'presses',
  'scroll',
  'control',
  'accessibility',
]);
const RESERVED = new Set(['view', 'type', 'action', 'recognizer', 'recognizers']);
/** The window's keys PageScene sets from its own options (not windowKeys). */
const WINDOW_OPTIONS = new Set(['id', 'size', 'devices', 'grab', 'forward', 'views']);
const PREFIX = 'touchd';
/** The elements that are views. */
export const VIEW_SELECTOR = '[data-touchd-view],[data-touchd-type],[data-touchd-recognizers]';

/** An attribute's value: JSON when it parses as JSON (numbers, true, false, lists, objects),
 * else the text. */
export function attributeValue(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function round(value) {
  return Math.round(value * 100) / 100;
}

function datasetKey(key) {
  // dataset.touchdHitOutset -> hitOutset
  const rest = key.slice(PREFIX.length);
  return rest.charAt(0).toLowerCase() + rest.slice(1);
}

/**
 * The view of one element: its keys and recognizers from its data-touchd-* attributes, without
 * frame and subviews. `id` is the view's id.
 */
export function viewFromDataset(id, dataset) {
  const view = { id };
  const parameters = {};
  for (const key of Object.keys(dataset)) {
    if (!key.startsWith(PREFIX) || key.length === PREFIX.length) continue;
    const name = datasetKey(key);
    if (RESERVED.has(name)) continue;
    const value = attributeValue(dataset[key]);
    if (VIEW_KEYS.includes(name)) view[name] = value;
    else parameters[name] = value;
  }
  const recognizers = [];
  const type = dataset.touchdType;
  if (type) {
    recognizers.push({
      id: dataset.touchdRecognizer || `${id}-${type}`,
      type,
      action: dataset.touchdAction || id,
      ...parameters,
    });
  } else if (Object.keys(parameters).length) {
    // Parameters without a type: let the daemon say what is wrong (an unknown view key).
    Object.assign(view, parameters);
  }
  if (dataset.touchdRecognizers) {
    let list = attributeValue(dataset.touchdRecognizers);
    if (!Array.isArray(list)) list = [list];
    list.forEach((recognizer, index) => {
      if (recognizer === null || typeof recognizer !== 'object') {
        recognizers.push(recognizer); // the daemon names what is wrong with it
        return;
      }
      const copy = { ...recognizer };
      copy.id ??= `${id}-${copy.type}-${index + 1}`;
      copy.action ??= id;
      recognizers.push(copy);
    });
  }
  if (recognizers.length) view.recognizers = recognizers;
  return view;
}

// Accessibility

/** The UIAccessibilityTraits (UIKit's UIAccessibilityConstants.h; docs/scene.md, "Accessibility")
 * of the WAI-ARIA 1.2 roles that have one; other roles bring none. */
const ROLE_TRAITS = new Map([
  // UIAccessibilityTraitButton: UIButton's. UISwitch's traits are `button` too (with its on or
  // off as the value), so ARIA's switch and checkbox are; a UISegmentedControl's segment is a
  // `button`, selected when it is (docs/accessibility.md), so ARIA's radio and tab are.
  ['button', 'button'],
  ['switch', 'button'],
  ['checkbox', 'button'],
  ['radio', 'button'],
  ['tab', 'button'],
  // UIAccessibilityTraitLink, UIAccessibilityTraitHeader, UIAccessibilityTraitImage,
  // UIAccessibilityTraitSearchField: ARIA's link, heading, img and searchbox.
  ['link', 'link'],
  ['heading', 'header'],
  ['img', 'image'],
  ['searchbox', 'searchField'],
  // UIAccessibilityTraitAdjustable: UISlider's and UIStepper's; ARIA's slider and spinbutton.
  ['slider', 'adjustable'],
  ['spinbutton', 'adjustable'],
]);

/** WAI-ARIA 1.2, "Roles Supporting Name from Content": only these are named by their text
 * (accname 1.2, step 2F). A container (main, region, figure, a plain div) is not: its text is
 * everything inside it, live status lines and logs included. */
const NAME_FROM_CONTENT = new Set([
  'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem',
]);

/** The attributes besides data-touchd-* whose change can change a view's accessibility. */
const ACCESSIBILITY_ATTRIBUTES = new Set(['role', 'title', 'alt', 'href', 'type', 'value', 'id', 'for']);

/** Whitespace collapsed and trimmed (accname 1.2's flat string). */
function flat(text) {
  return String(text ?? '').replace(/\s+/g, ' ').trim();
}

function tagOf(element) {
  return (element.localName ?? element.tagName ?? '').toLowerCase();
}

function ariaTrue(element, name) {
  return element.getAttribute(name) === 'true';
}

/** The implicit role of an element (HTML-AAM, "HTML Element Role Mappings"; only the elements
 * whose role the rules here use). */
function implicitRole(element) {
  const tag = tagOf(element);
  if (tag === 'button') return 'button';
  // a and area with href: link; without, no role (generic).
  if (tag === 'a' || tag === 'area') return element.hasAttribute('href') ? 'link' : null;
  if (/^h[1-6]$/.test(tag)) return 'heading';
  // img with alt="": presentation (decorative); else img.
  if (tag === 'img') return element.getAttribute('alt') === '' ? 'presentation' : 'img';
  if (tag === 'input') {
    const type = (element.getAttribute('type') ?? 'text').toLowerCase();
    if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
    if (type === 'checkbox' || type === 'radio') return type;
    if (type === 'range') return 'slider';
    if (type === 'number') return 'spinbutton';
    // type=search with a list (a datalist): combobox.
    if (type === 'search') return element.hasAttribute('list') ? 'combobox' : 'searchbox';
  }
  return null;
}

/** The element's role: its `role` attribute's first token (WAI-ARIA 1.2, "role": the first token
 * a user agent knows; later ones are fallbacks for older ones), else its implicit role. */
function roleOf(element) {
  const [given] = flat(element.getAttribute('role')).toLowerCase().split(' ');
  return given || implicitRole(element);
}

/** The text of an element's content (accname 1.2, step 2F, simplified): its text nodes in order,
 * a descendant's aria-label or an img's alt standing for that descendant, aria-hidden and hidden
 * descendants (and script, style, template) left out. */
function contentText(element) {
  let text = '';
  for (const node of element.childNodes ?? []) {
    if (node.nodeType === 3) {
      text += node.data ?? node.nodeValue ?? '';
    } else if (node.nodeType === 1) {
      if (ariaTrue(node, 'aria-hidden') || node.hasAttribute('hidden')) continue;
      if (['script', 'style', 'template'].includes(tagOf(node))) continue;
      const label = flat(node.getAttribute('aria-label'));
      if (label) text += ` ${label} `;
      else if (tagOf(node) === 'img') text += ` ${node.getAttribute('alt') ?? ''} `;
      else text += contentText(node);
    }
  }
  return text;
}

/** The text of the elements an IDREF list attribute names (accname 1.2, step 2B: each one's
 * aria-label, else its content, even when it is hidden), joined by spaces. */
function referencedText(element, attribute) {
  const ids = flat(element.getAttribute(attribute));
  if (!ids) return '';
  const document = element.ownerDocument;
  return flat(
    ids
      .split(' ')
      .map((id) => document?.getElementById(id))
      .filter(Boolean)
      .map((target) => flat(target.getAttribute('aria-label')) || flat(contentText(target)))
      .join(' '),
  );
}

/** The host language's label (accname 1.2, step 2D; HTML-AAM, "Accessible Name Computations By
 * HTML Element"): an img's or an input type=image's alt, a button input's value, a form
 * control's label elements. */
function hostLabel(element) {
  const tag = tagOf(element);
  const type = (element.getAttribute('type') ?? '').toLowerCase();
  if (tag === 'img' || (tag === 'input' && type === 'image')) return flat(element.getAttribute('alt'));
  if (tag === 'input' && ['button', 'submit', 'reset'].includes(type)) {
    const value = flat(element.getAttribute('value'));
    if (value) return value;
  }
  const labels = element.labels ? [...element.labels] : [];
  return flat(labels.map((label) => contentText(label)).join(' '));
}

/**
 * The `accessibility:` of the view of `element` (docs/scene.md, "Accessibility": UIKit's
 * UIAccessibility properties), from its WAI-ARIA role, states and properties; null when they give
 * none, so a view without any carries no empty object. Only keys with a value are given:
 *
 * - `label` (accessibilityLabel): the accessible name (accname 1.2): aria-labelledby's elements'
 *   text, else aria-label, else the host language's (an img's alt, a label element), else, for a
 *   role named from content (a button, a link, a heading…), the element's text, whitespace
 *   collapsed, else its title.
 * - `hint` (accessibilityHint): the accessible description (HTML-AAM, "Accessible Description
 *   Computation"): aria-describedby's elements' text, else the title when it is not the label.
 * - `value` (accessibilityValue): aria-valuetext, else aria-valuenow (WAI-ARIA 1.2: assistive
 *   technologies render aria-valuetext instead of aria-valuenow when both are there).
 * - `traits` (accessibilityTraits): the role's (ROLE_TRAITS: the `role` attribute, else the tag's
 *   implicit role, HTML-AAM); `selected` (UIAccessibilityTraitSelected) for aria-pressed,
 *   aria-selected or aria-checked "true"; `notEnabled` (UIAccessibilityTraitNotEnabled) for
 *   aria-disabled="true" or a disabled form control.
 * - `hidden` (accessibilityElementsHidden): aria-hidden="true" on the element or on an ancestor
 *   below `within` (the nearest element that is a view: its own `hidden` covers its subviews; null:
 *   every ancestor), as WAI-ARIA 1.2's aria-hidden hides an element's descendants; then nothing
 *   else is given.
 * - `modal` (accessibilityViewIsModal): aria-modal="true" (WAI-ARIA 1.2: what is outside the
 *   element is inert; UIKit: the elements of its siblings are ignored).
 */
export function accessibilityOf(element, within = null) {
  for (let node = element; node && node !== within && node.getAttribute; node = node.parentElement) {
    if (ariaTrue(node, 'aria-hidden')) return { hidden: true };
  }
  const accessibility = {};
  const role = roleOf(element);
  const title = flat(element.getAttribute('title'));
  const named =
    referencedText(element, 'aria-labelledby') ||
    flat(element.getAttribute('aria-label')) ||
    hostLabel(element) ||
    (NAME_FROM_CONTENT.has(role) ? flat(contentText(element)) : '');
  const label = named || title; // accname 1.2, step 2I: the tooltip attribute, last
  if (label) accessibility.label = label;
  const hint = referencedText(element, 'aria-describedby') || (named ? title : '');
  if (hint) accessibility.hint = hint;
  const value = flat(element.getAttribute('aria-valuetext')) || flat(element.getAttribute('aria-valuenow'));
  if (value) accessibility.value = value;
  const traits = [];
  if (ROLE_TRAITS.has(role)) traits.push(ROLE_TRAITS.get(role));
  if (['aria-pressed', 'aria-selected', 'aria-checked'].some((name) => ariaTrue(element, name))) traits.push('selected');
  if (ariaTrue(element, 'aria-disabled') || element.disabled === true) traits.push('notEnabled');
  if (traits.length) accessibility.traits = traits;
  if (ariaTrue(element, 'aria-modal')) accessibility.modal = true;
  return Object.keys(accessibility).length ? accessibility : null;
}

/**
 * The scene of a page: every element under `root` that matches VIEW_SELECTOR becomes a view at
 * its getBoundingClientRect() (in its nearest marked ancestor's coordinates), nested as the
 * elements are, back to front in document order, in one window of the viewport's size.
 *
 * Options: `root` (default document.body), `window` (the window id, 'main'), `devices` (['*']),
 * `grab` (false), `forward` (the window's `forward:`: true or {} for the default name, a name, or
 * {name}; absent: off; docs/forward.md: the touches no recognizer claims go on to a virtual
 * touchscreen, so the page keeps its own controls, links and scrolling; not with `grab`, which
 * forwarding does itself), `windowKeys` (more keys of the window: rotation, calibration,
 * frameRate, keys…; not those of the options above), `sceneKeys` (top-level keys:
 * stuckTouchTimeout, idle), `size` ({width, height}: the window's size; default the viewport's,
 * innerWidth × innerHeight).
 *
 * The first push is the whole scene; later ones only the subtrees that changed (SceneSync), so a
 * touch on a view the change left alone goes on.
 */
export class PageScene {
  constructor(client, options = {}) {
    this.client = client;
    this.root = options.root ?? globalThis.document?.body;
    this.windowId = options.window ?? 'main';
    this.devices = options.devices ?? ['*'];
    this.grab = options.grab ?? false;
    this.forward = PageScene._forward(options.forward);
    if (this.forward !== null && this.grab) {
      throw new TypeError(
        "PageScene: 'forward' grabs the window's touchscreens itself, once their virtual touchscreens exist; " +
          "'grab: true' would grab them also when there is none (no uinput), leaving the compositor without touches",
      );
    }
    this.windowKeys = options.windowKeys ?? {};
    const owned = Object.keys(this.windowKeys).filter((key) => WINDOW_OPTIONS.has(key));
    if (owned.length) {
      throw new TypeError(
        `PageScene: ${owned.map((k) => `'${k}'`).join(', ')} in windowKeys: PageScene sets them from its options ` +
          '(window, size, devices, grab, forward) and the page (views)',
      );
    }
    this.sceneKeys = options.sceneKeys ?? {};
    this.size = options.size ?? null;
    this._sync = new SceneSync(client);
    this._elements = new Map(); // view id -> element
    this._ids = new WeakMap(); // element -> generated id
    this._generated = 0;
    this._inFlight = false;
    this._again = false;
    this._force = false;
    this._resize = null;
    this._stops = [];
  }

  /** The last scene accepted (the daemon runs it), the reply to that push's last command (a
   * `scene` reply, or the last `update` reply), and the last refusal (null once a later push is
   * accepted). */
  get scene() {
    return this._sync.scene;
  }

  get reply() {
    return this._sync.reply;
  }

  get error() {
    return this._sync.error;
  }

  /** The update commands of the last accepted push; null when it pushed the whole scene. */
  get updates() {
    return this._sync.updates;
  }

  /** Pushes accepted, whole or by updates. */
  get pushes() {
    return this._sync.pushes;
  }

  /** accessibilityOf(): the `accessibility:` the element's ARIA gives its view (null: none). */
  static accessibilityOf(element, within = null) {
    return accessibilityOf(element, within);
  }

  static _forward(value) {
    if (value === undefined || value === null || value === false) return null;
    if (value === true) return {};
    if (typeof value === 'string') return { name: value };
    return { ...value };
  }

  /** Builds and pushes the scene, then watches the page (ResizeObserver, MutationObserver,
   * resize, scroll, transitions) and the client (reconnections, reloads, actions). */
  start() {
    const schedule = () => this.refresh();
    const view = this.root.ownerDocument.defaultView;
    const resize = new view.ResizeObserver(schedule);
    resize.observe(this.root);
    this._resize = resize;
    const mutations = new view.MutationObserver((records) => {
      if (records.some((record) => this._matters(record))) schedule();
    });
    mutations.observe(this.root, { subtree: true, childList: true, attributes: true, characterData: true });
    this._stops.push(() => resize.disconnect(), () => mutations.disconnect());
    const listen = (target, type, options) => {
      target.addEventListener(type, schedule, options);
      this._stops.push(() => target.removeEventListener(type, schedule, options));
    };
    listen(view, 'resize', { passive: true });
    listen(this.root.ownerDocument, 'scroll', { capture: true, passive: true });
    listen(this.root, 'transitionend', { passive: true });
    listen(this.root, 'animationend', { passive: true });
    this._stops.push(
      this.client.onMessage((message) => this._message(message)),
    );
    return this.refresh({ force: true });
  }

  stop() {
    for (const stop of this._stops.splice(0)) stop();
  }

  /** The element of a view id of the last scene built. */
  elementFor(viewId) {
    return this._elements.get(viewId) ?? null;
  }

  /** Builds the scene from the page as it is now. */
  build() {
    const document = this.root.ownerDocument;
    const window = document.defaultView;
    const elements = [...this.root.querySelectorAll(VIEW_SELECTOR)];
    if (this.root.matches?.(VIEW_SELECTOR)) elements.unshift(this.root);
    const marked = new Set(elements);
    const views = new Map();
    const top = [];
    this._elements = new Map();
    for (const element of elements) {
      const id = this._idOf(element);
      const view = viewFromDataset(id, element.dataset);
      const rect = element.getBoundingClientRect();
      let parent = element.parentElement;
      while (parent && !marked.has(parent)) parent = parent.parentElement;
      const origin = parent ? parent.getBoundingClientRect() : { left: 0, top: 0 };
      const frame = {
        x: round(rect.left - origin.left),
        y: round(rect.top - origin.top),
        width: round(Math.max(0, rect.width)),
        height: round(Math.max(0, rect.height)),
      };
      const shown = element.getClientRects().length > 0 && window.getComputedStyle(element).visibility !== 'hidden';
      const node = { id, frame };
      if (!shown && view.hidden === undefined) node.hidden = true;
      if ((element.disabled === true || element.inert === true) && view.userInteractionEnabled === undefined) {
        node.userInteractionEnabled = false;
      }
      for (const [key, value] of Object.entries(view)) if (key !== 'id') node[key] = value;
      // The page's ARIA, and over it, key by key, data-touchd-accessibility's (the keys ARIA has
      // no attribute for: activationPoint, frame, element, other traits). One that is no object
      // is left for the daemon to refuse.
      const aria = accessibilityOf(element, parent);
      const given = view.accessibility;
      if (given === undefined) {
        if (aria) node.accessibility = aria;
      } else if (given !== null && typeof given === 'object' && !Array.isArray(given)) {
        node.accessibility = { ...aria, ...given };
      }
      this._resize?.observe(element);
      views.set(element, node);
      this._elements.set(id, element);
      if (parent) {
        const parentNode = views.get(parent);
        (parentNode.views ??= []).push(node);
      } else {
        top.push(node);
      }
    }
    const size = this.size ?? { width: window.innerWidth, height: window.innerHeight };
    return {
      version: 1,
      ...this.sceneKeys,
      windows: [
        {
          id: this.windowId,
          size: { width: size.width, height: size.height },
          devices: this.devices,
          ...(this.grab ? { grab: true } : {}),
          ...(this.forward ? { forward: this.forward } : {}),
          ...this.windowKeys,
          views: top,
        },
      ],
    };
  }

  /** Builds the scene again soon (once per animation frame) and pushes it if it changed;
   * `force`: push even if it did not. Resolves once that push is answered. */
  refresh({ force = false } = {}) {
    if (force) this._force = true;
    if (!this._scheduledPromise) {
      this._scheduledPromise = new Promise((resolve) => {
        let done = false;
        const run = () => {
          if (done) return;
          done = true;
          this._scheduledPromise = null;
          resolve(this._flush());
        };
        const window = this.root.ownerDocument.defaultView;
        window.requestAnimationFrame?.(run);
        setTimeout(run, 50); // no animation frames in a hidden page
      });
    }
    return this._scheduledPromise;
  }

  async _flush() {
    if (this._inFlight) {
      this._again = true;
      return this._inFlightPromise;
    }
    const scene = this.build();
    if (this._force) this._sync.reset();
    this._force = false;
    this._inFlight = true;
    this._inFlightPromise = (async () => {
      try {
        const result = await this._sync.push(scene);
        if (result === null) return this.reply; // nothing to send
        if (result.accepted) {
          this._dispatch(this.root, 'touchd-scene', { scene, reply: result.reply, updates: result.updates });
          return result.reply;
        }
        if (result.error instanceof TouchdError) {
          console.error(`touchd refused the page's scene: ${result.error.message}`);
          this._dispatch(this.root, 'touchd-scene-error', { scene, error: result.error });
        }
        // ConnectionLost: pushed again, whole, when the client reconnects.
        return null;
      } finally {
        this._inFlight = false;
        if (this._again) {
          this._again = false;
          this.refresh();
        }
      }
    })();
    return this._inFlightPromise;
  }

  _matters(record) {
    if (record.type !== 'attributes') return true;
    // Attributes that move or restyle elements, change what is marked, or change a view's
    // accessibility (ARIA's, and the host language's that accessibilityOf reads).
    const name = record.attributeName;
    return (
      name.startsWith('data-touchd') || name === 'style' || name === 'class' || name === 'hidden' || name === 'disabled' || name === 'inert' ||
      name.startsWith('aria-') || ACCESSIBILITY_ATTRIBUTES.has(name)
    );
  }

  _message(message) {
    if (message.type === 'reconnected') {
      // A restarted daemon has its scene file's scene again; the same one may have reloaded it.
      this.refresh({ force: true });
    } else if (message.type === 'reloaded' && message.source === 'file') {
      this.refresh({ force: true });
    } else if (PIPELINE_TYPES.includes(message.type) && message.view) {
      const element = this._elements.get(message.view);
      if (!element) return;
      if (message.type === 'action') this._dispatch(element, message.action, message);
      this._dispatch(element, 'touchd', message);
    }
  }

  _dispatch(target, type, detail) {
    const view = this.root.ownerDocument.defaultView;
    target.dispatchEvent(new view.CustomEvent(type, { detail, bubbles: true }));
  }

  _idOf(element) {
    const given = element.dataset.touchdView || element.id;
    if (given) return given;
    let id = this._ids.get(element);
    if (!id) {
      id = `touchd-view-${++this._generated}`;
      this._ids.set(element, id);
    }
    return id;
  }
}
