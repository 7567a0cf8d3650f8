// The parts of the client that need no daemon: backoff, command encoding, and the views built
// from data-touchd-* attributes.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Backoff, TouchdClient, attributeValue, defaultWebSocket, encodeCommand, sceneUpdates, viewFromDataset } from '../touchd.js';

test('backoff doubles from 0.05 s up to 2 s, within its jitter', () => {
  const backoff = new Backoff();
  const middle = () => 0.5; // no jitter
  assert.deepEqual([0, 1, 2, 3, 6, 7, 50].map((n) => backoff.delay(n, middle)), [0, 0.05, 0.1, 0.2, 1.6, 2, 2]);
  assert.equal(backoff.delay(1, () => 0), 0.05 * 0.8);
  assert.equal(backoff.delay(1, () => 1), 0.05 * 1.2);
  assert.equal(backoff.delay(10, () => 1), 2); // never past the maximum
  const fast = new Backoff({ initial: 0.1, maximum: 0.5, factor: 3, jitter: 0 });
  assert.deepEqual([1, 2, 3].map((n) => fast.delay(n)), [0.1, 0.30000000000000004, 0.5]);
});

test('commands are one compact JSON object, cmd and id first', () => {
  assert.equal(encodeCommand('ping', 1), '{"cmd":"ping","id":1}');
  assert.equal(
    encodeCommand('set', 7, { view: 'door', hidden: true, alpha: undefined }),
    '{"cmd":"set","id":7,"view":"door","hidden":true}',
  );
  assert.throws(() => encodeCommand('set', 1, { view: 'door', alpha: Infinity }), /'alpha': touchd takes finite numbers only/);
  assert.throws(() => encodeCommand('set', 1, { frame: { x: NaN } }), /'x'/);
  assert.throws(() => encodeCommand('ping', 1, { id: 3 }), /'id' is set by the client/);
});

test('the client needs a WebSocket: the global one, else in Node the ws package', async () => {
  const saved = globalThis.WebSocket;
  // What this Node found when the client was imported: the ws package when it had no global one.
  const fallback = saved === undefined ? defaultWebSocket() : null;
  globalThis.WebSocket = undefined;
  try {
    if (fallback === null) {
      assert.equal(defaultWebSocket(), null);
      assert.throws(() => new TouchdClient('ws://127.0.0.1:1/'), /Node 20 needs --experimental-websocket; Node 18 and 20 use the ws package/);
    } else {
      // Node without a global WebSocket (Debian 12's Node 18 with node-ws): the ws package's.
      const { createRequire } = await import('node:module');
      assert.equal(fallback, createRequire(import.meta.url)('ws'));
      assert.equal(new TouchdClient('ws://127.0.0.1:1/').WebSocket, fallback);
    }
  } finally {
    globalThis.WebSocket = saved;
  }
  if (saved !== undefined) assert.equal(defaultWebSocket(), saved); // a global one wins
  class Fake {}
  const client = new TouchdClient({ url: 'ws://[::1]:9/', WebSocket: Fake });
  assert.equal(client.WebSocket, Fake); // options.WebSocket wins over both
  assert.equal(client.url, 'ws://[::1]:9/');
  assert.equal(client.timeout, 30);
  assert.equal(client.backoff.maximum, 2);
});

test('attribute values are JSON when they parse, else text', () => {
  assert.equal(attributeValue('2'), 2);
  assert.equal(attributeValue('true'), true);
  assert.equal(attributeValue('left'), 'left');
  assert.deepEqual(attributeValue('["left","right"]'), ['left', 'right']);
  assert.equal(attributeValue('buy-ticket'), 'buy-ticket');
});

test('a view from data-touchd-* attributes', () => {
  // dataset names as the DOM gives them: data-touchd-number-of-taps-required -> touchdNumberOfTapsRequired
  assert.deepEqual(
    viewFromDataset('buy', {
      touchdType: 'tap',
      touchdAction: 'buy-ticket',
      touchdNumberOfTapsRequired: '2',
      touchdHitOutset: '12',
      other: 'x',
    }),
    {
      id: 'buy',
      hitOutset: 12,
      recognizers: [{ id: 'buy-tap', type: 'tap', action: 'buy-ticket', numberOfTapsRequired: 2 }],
    },
  );
  // No action: the view's id; a recognizer id of its own.
  assert.deepEqual(viewFromDataset('photo', { touchdType: 'pinch', touchdRecognizer: 'zoom', touchdMultipleTouchEnabled: 'true' }), {
    id: 'photo',
    multipleTouchEnabled: true,
    recognizers: [{ id: 'zoom', type: 'pinch', action: 'photo' }],
  });
  // Several recognizers as JSON, besides the one of data-touchd-type.
  assert.deepEqual(
    viewFromDataset('carousel', {
      touchdView: 'carousel',
      touchdRecognizers: '[{"type":"swipe","action":"next","direction":"left"},{"id":"back","type":"swipe","direction":"right"}]',
    }),
    {
      id: 'carousel',
      recognizers: [
        { id: 'carousel-swipe-1', type: 'swipe', action: 'next', direction: 'left' },
        { id: 'back', type: 'swipe', direction: 'right', action: 'carousel' },
      ],
    },
  );
  // A view without recognizers; a stray parameter is left for the daemon to name.
  assert.deepEqual(viewFromDataset('pad', { touchdView: 'pad', touchdTouches: 'true' }), { id: 'pad', touches: true });
  assert.deepEqual(viewFromDataset('pad', { touchdView: 'pad', touchdDirection: 'left' }), { id: 'pad', direction: 'left' });
});

test('sceneUpdates: only the subtrees that changed, in an order the daemon takes', () => {
  const frame = (x) => ({ x, y: 0, width: 10, height: 10 });
  const tap = (id, extra = {}) => ({ id, type: 'tap', action: id, ...extra });
  const base = {
    version: 1,
    windows: [
      {
        id: 'main',
        size: { width: 100, height: 100 },
        views: [
          { id: 'root', frame: frame(0), recognizers: [tap('r1'), tap('r2')], views: [{ id: 'a', frame: frame(1) }, { id: 'b', frame: frame(2) }] },
          { id: 'side', frame: frame(50) },
        ],
      },
    ],
  };
  const change = (edit) => {
    const scene = structuredClone(base);
    edit(scene.windows[0].views);
    return scene;
  };
  assert.deepEqual(sceneUpdates(base, structuredClone(base)), []);
  // Key order does not matter.
  const reversed = (value) =>
    Array.isArray(value) ? value.map(reversed)
    : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]))
    : value;
  assert.notEqual(JSON.stringify(reversed(base)), JSON.stringify(base));
  assert.deepEqual(sceneUpdates(base, reversed(base)), []);
  // A subview moved: that subview alone, not its parent.
  const moved = change((views) => (views[0].views[1].frame = frame(7)));
  assert.deepEqual(sceneUpdates(base, moved), [{ op: 'replace', view: moved.windows[0].views[0].views[1] }]);
  // The parent's own key changed: the parent with its subtree.
  const hidden = change((views) => (views[0].hidden = true));
  assert.deepEqual(sceneUpdates(base, hidden), [{ op: 'replace', view: hidden.windows[0].views[0] }]);
  // Added at its index, removed by id; removals first.
  const added = change((views) => {
    views[0].views.splice(1, 0, { id: 'new', frame: frame(3) });
    views.pop();
  });
  assert.deepEqual(sceneUpdates(base, added), [
    { op: 'remove', view: 'side' },
    { op: 'add', view: { id: 'new', frame: frame(3) }, parent: 'root', index: 1 },
  ]);
  // Recognizers one by one: removed, added (after the others), replaced.
  const recognizers = change((views) => (views[0].recognizers = [tap('r1', { numberOfTapsRequired: 2 }), tap('r3')]));
  assert.deepEqual(sceneUpdates(base, recognizers), [
    { op: 'remove', recognizer: 'r2' },
    { op: 'add', recognizer: tap('r3'), parent: 'root' },
    { op: 'replace', recognizer: tap('r1', { numberOfTapsRequired: 2 }) },
  ]);
  // A recognizer added before the others, or recognizers or subviews reordered: the view replaced.
  const before = change((views) => views[0].recognizers.unshift(tap('r0')));
  assert.deepEqual(sceneUpdates(base, before), [{ op: 'replace', view: before.windows[0].views[0] }]);
  const reordered = change((views) => views[0].views.reverse());
  assert.deepEqual(sceneUpdates(base, reordered), [{ op: 'replace', view: reordered.windows[0].views[0] }]);
  // A view that moves to another parent leaves before it comes back.
  const reparented = change((views) => {
    const [b] = views[0].views.splice(1, 1);
    views[1].views = [b];
  });
  assert.deepEqual(sceneUpdates(base, reparented), [
    { op: 'remove', view: 'b' },
    { op: 'add', view: { id: 'b', frame: frame(2) }, parent: 'side', index: 0 },
  ]);
  // Only a whole scene: the window's own keys, the top-level views reordered, the scene's keys.
  assert.equal(sceneUpdates(base, { ...structuredClone(base), stuckTouchTimeout: 30 }), null);
  const resized = structuredClone(base);
  resized.windows[0].size = { width: 200, height: 100 };
  assert.equal(sceneUpdates(base, resized), null);
  const forwarding = structuredClone(base);
  forwarding.windows[0].forward = {};
  assert.equal(sceneUpdates(base, forwarding), null);
  assert.equal(sceneUpdates(base, change((views) => views.reverse())), null);
  assert.equal(sceneUpdates(null, base), null);
});
