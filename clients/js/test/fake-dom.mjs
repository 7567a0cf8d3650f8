// A DOM just large enough for PageScene without a browser: elements with attributes, text, fixed
// rectangles and events, the observers PageScene makes, and a MutationObserver that reports
// attribute, text and child changes as the browser's does (after the change, in a microtask).
// Selectors: only lists of attribute presences (`[data-touchd-view],[data-touchd-type]`).

const TEXT = 3;
const ELEMENT = 1;

class FakeText {
  constructor(document, data) {
    this.nodeType = TEXT;
    this.ownerDocument = document;
    this.parentElement = null;
    this._data = String(data);
  }

  get data() {
    return this._data;
  }

  set data(value) {
    this._data = String(value);
    this.ownerDocument._record({ type: 'characterData', target: this });
  }

  get textContent() {
    return this._data;
  }
}

function camel(name) {
  // data-touchd-hit-outset -> touchdHitOutset
  return name.slice(5).replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
}

function selectorAttributes(selector) {
  return selector.split(',').map((part) => {
    const match = /^\s*\[([\w-]+)\]\s*$/.exec(part);
    if (!match) throw new Error(`the fake DOM takes attribute presences only, not ${JSON.stringify(part)}`);
    return match[1];
  });
}

class FakeElement {
  constructor(document, tag) {
    this.nodeType = ELEMENT;
    this.ownerDocument = document;
    this.localName = tag;
    this.tagName = tag.toUpperCase();
    this.parentElement = null;
    this.childNodes = [];
    this.rect = { left: 0, top: 0, width: 0, height: 0 };
    this.shown = true;
    this._attributes = new Map();
    this._listeners = new Map();
  }

  getAttribute(name) {
    return this._attributes.has(name) ? this._attributes.get(name) : null;
  }

  hasAttribute(name) {
    return this._attributes.has(name);
  }

  setAttribute(name, value) {
    this._attributes.set(name, String(value));
    this.ownerDocument._record({ type: 'attributes', target: this, attributeName: name });
  }

  removeAttribute(name) {
    this._attributes.delete(name);
    this.ownerDocument._record({ type: 'attributes', target: this, attributeName: name });
  }

  get id() {
    return this.getAttribute('id') ?? '';
  }

  /** A copy: enough for reading, as PageScene does. */
  get dataset() {
    const dataset = {};
    for (const [name, value] of this._attributes) if (name.startsWith('data-')) dataset[camel(name)] = value;
    return dataset;
  }

  get disabled() {
    return ['button', 'input', 'select', 'textarea', 'fieldset'].includes(this.localName) && this.hasAttribute('disabled');
  }

  get children() {
    return this.childNodes.filter((node) => node.nodeType === ELEMENT);
  }

  get textContent() {
    return this.childNodes.map((node) => node.textContent).join('');
  }

  set textContent(value) {
    for (const node of this.childNodes) node.parentElement = null;
    this.childNodes = [];
    if (value !== '') this._adopt(new FakeText(this.ownerDocument, value));
    this.ownerDocument._record({ type: 'childList', target: this });
  }

  append(...nodes) {
    for (const node of nodes) this._adopt(typeof node === 'string' ? new FakeText(this.ownerDocument, node) : node);
    this.ownerDocument._record({ type: 'childList', target: this });
  }

  _adopt(node) {
    node.parentElement = this;
    this.childNodes.push(node);
  }

  *_descendants() {
    for (const child of this.children) {
      yield child;
      yield* child._descendants();
    }
  }

  matches(selector) {
    return selectorAttributes(selector).some((name) => this.hasAttribute(name));
  }

  querySelectorAll(selector) {
    const names = selectorAttributes(selector);
    return [...this._descendants()].filter((element) => names.some((name) => element.hasAttribute(name)));
  }

  getBoundingClientRect() {
    return { ...this.rect };
  }

  getClientRects() {
    return this.shown ? [this.getBoundingClientRect()] : [];
  }

  addEventListener(type, listener) {
    if (!this._listeners.has(type)) this._listeners.set(type, []);
    this._listeners.get(type).push(listener);
  }

  removeEventListener(type, listener) {
    const list = this._listeners.get(type) ?? [];
    if (list.includes(listener)) list.splice(list.indexOf(listener), 1);
  }

  dispatchEvent(event) {
    for (let target = this; target; target = event.bubbles ? target.parentElement : null) {
      for (const listener of [...(target._listeners.get(event.type) ?? [])]) listener(event);
    }
    return true;
  }
}

class FakeWindow {
  constructor(document, { width, height }) {
    this.document = document;
    this.innerWidth = width;
    this.innerHeight = height;
    this.ResizeObserver = class {
      observe() {}
      disconnect() {}
    };
    this.MutationObserver = class {
      constructor(callback) {
        this.callback = callback;
      }

      observe(target) {
        this.target = target;
        document._observers.add(this);
      }

      disconnect() {
        document._observers.delete(this);
      }
    };
    this.CustomEvent = class {
      constructor(type, { detail = null, bubbles = false } = {}) {
        Object.assign(this, { type, detail, bubbles });
      }
    };
  }

  getComputedStyle() {
    return { visibility: 'visible' };
  }

  requestAnimationFrame(callback) {
    return setTimeout(callback, 0);
  }

  addEventListener() {}
  removeEventListener() {}
}

class FakeDocument {
  constructor(size) {
    this.defaultView = new FakeWindow(this, size);
    this._observers = new Set();
    this.records = []; // every mutation so far, for the tests
    this.documentElement = new FakeElement(this, 'html');
    this.body = new FakeElement(this, 'body');
    this.documentElement.append(this.body);
  }

  createElement(tag) {
    return new FakeElement(this, tag);
  }

  getElementById(id) {
    return [this.documentElement, ...this.documentElement._descendants()].find((element) => element.id === id) ?? null;
  }

  addEventListener() {}
  removeEventListener() {}

  _record(record) {
    this.records.push(record);
    for (const observer of this._observers) {
      let node = record.target;
      while (node && node !== observer.target) node = node.parentElement;
      if (!node) continue;
      (observer.pending ??= []).push(record);
      if (observer.pending.length === 1) {
        queueMicrotask(() => {
          const records = observer.pending;
          observer.pending = [];
          if (this._observers.has(observer)) observer.callback(records, observer);
        });
      }
    }
  }
}

/** A document of a `width` × `height` viewport, and `h(tag, attributes, ...children)` to make its
 * elements (children: elements or strings, which become text nodes). */
export function fakeDocument({ width = 1280, height = 800 } = {}) {
  const document = new FakeDocument({ width, height });
  const h = (tag, attributes = {}, ...children) => {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (name === 'rect') element.rect = { ...element.rect, ...value };
      else element._attributes.set(name, String(value));
    }
    for (const child of children) element._adopt(typeof child === 'string' ? new FakeText(document, child) : child);
    return element;
  };
  return { document, h };
}
