// The JavaScript client against the real daemon, over its WebSocket endpoint: messages,
// subscriptions and their filters, commands and their errors, scenes pushed.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ConnectionLost, PIPELINE_TYPES, TouchdClient, TouchdError } from '../touchd.js';
import { DOOR, LAMP, PAD, TAPS_MESSAGES, daemonFactory, kind, needsTouchd, tapsScript } from './daemon.mjs';
import { FingerScript } from './evemu.mjs';
import { collectUntilShutdown } from './helpers.mjs';

const skip = needsTouchd();
const near = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

test('hello over the WebSocket', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start();
  const client = new TouchdClient(daemons.url);
  t.after(() => client.close());
  const hello = await client.connect(10);
  assert.equal(hello.type, 'hello');
  assert.equal(hello.version, 1);
  assert.match(hello.instance, /^[0-9a-f]{16}$/);
  assert.deepEqual(hello.windows, [{ id: 'main', width: 1920, height: 1080 }]);
  assert.equal(hello.views, 3);
  assert.equal(client.hello, hello);
  assert.equal(client.connected, true);
});

test('tap actions under the default filter', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start(tapsScript(), { exitAfterReplay: true, speed: 2 });
  const client = new TouchdClient(daemons.url, { reconnect: false });
  t.after(() => client.close());
  await client.connect(10);
  const messages = await collectUntilShutdown(client);
  // No subscribe: the daemon's default filter, actions only.
  assert.deepEqual(messages.map((m) => m.type), ['action', 'action', 'shutdown']);
  const [door, lamp] = messages;
  assert.deepEqual(
    [door.seq, door.action, door.gesture, door.state, door.view, door.window, door.recognizer, door.numberOfTouches],
    [3, 'open-door', 'tap', 'ended', 'door', 'main', 'door-tap', 1],
  );
  near(door.location.x, DOOR[0], 1, 'door x');
  near(door.location.y, DOOR[1], 1, 'door y');
  near(door.time, 10.05, 1e-6, 'door time');
  assert.deepEqual([lamp.seq, lamp.action, lamp.view, lamp.recognizer], [4, 'toggle-lamp', 'lamp', 'lamp-tap']);
  near(lamp.location.x, LAMP[0], 1, 'lamp x');
  near(lamp.time, 10.6, 1e-6, 'lamp time');
  // The connection is gone for good (reconnect: false): reading on rejects.
  await assert.rejects(client.nextMessage(5), ConnectionLost);
});

test('subscribe to touches: phases, ids and seq', { skip }, async (t) => {
  const script = new FingerScript({ start: 10 });
  script.tap(DOOR);
  script.wait(0.3);
  script.drag(PAD, [PAD[0] + 200, PAD[1]], 0.1); // 12 frames at 120 Hz
  script.wait(0.3);
  const daemons = await daemonFactory(t);
  await daemons.start(script, { exitAfterReplay: true, speed: 2 });
  const client = new TouchdClient(daemons.url);
  t.after(() => client.close());
  const reply = await client.subscribe({ types: ['touches'], coalesced: true });
  assert.equal(reply.type, 'reply');
  assert.equal(reply.ok, true);
  assert.deepEqual(
    [reply.types, reply.actions, reply.views, reply.overflow, reply.coalesced, reply.predicted],
    [['touches'], [], [], 'disconnect', true, false],
  );
  assert.deepEqual(client.subscription, { types: ['touches'], coalesced: true });
  const messages = await collectUntilShutdown(client);
  const touches = messages.filter((m) => m.type === 'touches');
  assert.equal(touches.length, messages.length - 1); // no action: not subscribed
  assert.deepEqual(
    touches.map((m) => [m.view, m.phase]),
    [['door', 'began'], ['door', 'cancelled'], ['pad', 'began'], ...Array(12).fill(['pad', 'moved']), ['pad', 'ended']],
  );
  assert.deepEqual(
    touches.map((m) => m.seq),
    [1, 2, ...Array.from({ length: 14 }, (_, i) => i + 4)], // 3 is the open-door action
  );
  const first = touches[2].touches[0];
  const last = touches.at(-1).touches[0];
  assert.deepEqual([first.phase, first.view, first.tapCount, first.id], ['began', 'pad', 1, 2]);
  near(first.x, PAD[0], 1, 'first x');
  assert.equal(last.phase, 'ended');
  near(last.x, PAD[0] + 200, 1, 'last x');
  // Each moved message lists its frame (the touch itself, at the message's time); none predicted.
  for (const m of touches.filter((m) => m.phase === 'moved')) {
    const t = m.touches[0];
    assert.deepEqual(m.coalesced, [{ id: t.id, x: t.x, y: t.y, time: m.time }]);
    assert.equal(m.predicted, undefined);
  }
});

test('subscribe filters: views and actions', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start(tapsScript(), { exitAfterReplay: true, speed: 2, delay: 1.5 });
  const byViews = new TouchdClient(daemons.url);
  const byActions = new TouchdClient(daemons.url);
  const byTypes = new TouchdClient(daemons.url);
  t.after(() => [byViews, byActions, byTypes].forEach((c) => c.close()));
  assert.deepEqual((await byViews.subscribe({ types: ['action', 'touches'], views: ['lamp', 'pad'] })).views, ['lamp', 'pad']);
  assert.deepEqual((await byActions.subscribe({ types: new Set(['action', 'touches']), actions: 'toggle-lamp' })).actions, ['toggle-lamp']);
  assert.deepEqual((await byTypes.subscribe({ types: 'touches', views: [] })).views, []);
  const [views, actions, types] = await Promise.all([byViews, byActions, byTypes].map((c) => collectUntilShutdown(c)));
  assert.deepEqual(views.slice(0, -1).map(kind), TAPS_MESSAGES.slice(3));
  assert.deepEqual(views.slice(0, -1).map((m) => m.seq), [4, 5, 6]);
  // `actions` filters actions only: every touches message passes.
  assert.deepEqual(actions.slice(0, -1).map(kind), TAPS_MESSAGES.filter(([, , a]) => a !== 'open-door'));
  assert.deepEqual(actions.slice(0, -1).map((m) => m.seq), [1, 2, 4, 5, 6]);
  assert.deepEqual(types.slice(0, -1).map(kind), TAPS_MESSAGES.filter(([type]) => type === 'touches'));
});

test("command errors reject with the daemon's message", { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start();
  const client = new TouchdClient(daemons.url);
  t.after(() => client.close());
  await client.connect(10);

  const error = await client.setView('dor', { hidden: true }).catch((e) => e);
  assert.ok(error instanceof TouchdError, String(error));
  assert.equal(error.message, "unknown view 'dor' (did you mean 'door'?)");
  assert.equal(error.cmd, 'set');
  assert.equal(error.id, 1);

  const expect = async (promise, check) => {
    const e = await promise.then(
      (reply) => assert.fail(`no error: ${JSON.stringify(reply)}`),
      (e) => e,
    );
    assert.ok(e instanceof TouchdError, String(e));
    if (typeof check === 'string') assert.equal(e.message, check);
    else assert.match(e.message, check);
  };
  await expect(client.send('set', { view: 'door', hidden: 1 }), "'hidden' must be true or false, found 1");
  await expect(client.setView('door', { alpha: '0.5' }), `'alpha' must be a number, found "0.5"`);
  await expect(client.setView('door', { hiden: true }), /^unknown field 'hiden' \(did you mean 'hidden'\? set takes view, hidden, alpha/);
  await expect(client.send('stauts'), /^unknown command 'stauts' \(did you mean 'status'\?/);
  await expect(client.subscribe({ types: 'toches' }), /^unknown message type 'toches' in 'types' \(did you mean 'touches'\?/);
  await expect(client.ignoreInteraction(false), 'not ignoring interaction events');
  await expect(client.calibrate('main', [[10, 10], [20, 20]]), /^'targets' must be an array of 3 to 9 targets/);
  // NaN never leaves the client: the daemon would refuse it, the client says so first.
  await assert.rejects(client.setView('door', { alpha: NaN }), /finite numbers only/);

  // A failed subscribe keeps the last good one (none), also for reconnections.
  assert.equal(client.subscription, null);
  // The connection stays usable after errors; ids went on increasing (the NaN one took none).
  const reply = await client.ping();
  assert.deepEqual(reply, { type: 'reply', id: 9, ok: true });
});

test('status, set and ignoreInteraction replies; notices', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start();
  const client = new TouchdClient(daemons.url);
  t.after(() => client.close());
  const status = await client.status();
  assert.equal(status.ok, true);
  assert.equal(status.clients, 1);
  assert.equal(status.replay, null);
  assert.equal(status.counters.clientsAccepted, 1);
  assert.equal((await client.ignoreInteraction(true)).ignoring, 1);
  assert.equal((await client.ignoreInteraction(true)).ignoring, 2);
  const rotated = await client.setWindow('main', { rotation: 90 });
  assert.deepEqual([rotated.window, rotated.rotation, rotated.calibration], ['main', 90, [1, 0, 0, 0, 1, 0]]);
  const notice = await client.nextMessage(5);
  assert.deepEqual(
    [notice.type, notice.window, notice.width, notice.height, notice.rotation],
    ['windowChanged', 'main', 1920, 1080, 90],
  );
  const resized = await client.setWindow('main', { size: [1280, 720] });
  assert.deepEqual([resized.width, resized.height], [1280, 720]);
  assert.equal((await client.nextMessage(5)).type, 'windowChanged');
  assert.equal((await client.setView('door', { hidden: true, frame: { x: 0, y: 0, width: 10, height: 10 } })).ok, true);
});

test('pushScene: a bad scene is refused by path, a good one replaces the running scene', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start();
  const client = new TouchdClient(daemons.url);
  t.after(() => client.close());
  await client.connect(10);
  const bad = {
    version: 1,
    windows: [{ id: 'kiosk', size: { width: 800, height: 480 }, views: [{ id: 'ok', fram: { x: 0, y: 0, width: 10, height: 10 } }] }],
  };
  const error = await client.pushScene(bad).catch((e) => e);
  assert.ok(error instanceof TouchdError, String(error));
  assert.equal(error.cmd, 'scene');
  assert.match(error.message, /^scene rejected, the old scene stays: /);
  assert.match(error.message, /scene\.windows\[0\]\.views\[0\]\.fram: error: unknown key 'fram' in view 'ok' \(did you mean 'frame'\?\)/);

  const good = structuredClone(bad);
  good.windows[0].views[0] = {
    id: 'ok',
    frame: { x: 0, y: 0, width: 10, height: 10 },
    recognizers: [{ id: 'ok-tap', type: 'tap', action: 'ok' }],
  };
  const reply = await client.pushScene(good);
  assert.deepEqual([reply.windows, reply.views, reply.recognizers], [[{ id: 'kiosk', width: 800, height: 480 }], 1, 1]);
  const reloaded = await client.nextMessage(5);
  assert.deepEqual([reloaded.type, reloaded.source, reloaded.views], ['reloaded', 'client', 1]);
  assert.equal((await client.status()).counters.scenePushes, 1);
  // An update on the pushed scene.
  const updated = await client.update('add', { parent: 'kiosk', view: { id: 'two', frame: { x: 20, y: 0, width: 10, height: 10 } } });
  assert.deepEqual([updated.op, updated.view, updated.parent, updated.index, updated.views], ['add', 'two', 'kiosk', 1, 2]);
});

test('the iterator yields messages and ends when the client closes', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start(tapsScript(0.2), { loop: true, speed: 2, delay: 0.3 });
  const client = new TouchdClient(daemons.url);
  await client.subscribe({ types: PIPELINE_TYPES });
  const seen = [];
  for await (const message of client) {
    seen.push(message);
    if (seen.length === 6) client.close();
  }
  assert.deepEqual(seen.map((m) => m.seq), [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(seen.map(kind), TAPS_MESSAGES);
  await assert.rejects(client.ping(), ConnectionLost);
});

test('listeners get every message; the queue is kept only without them', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start(tapsScript(), { exitAfterReplay: true, speed: 2 });
  const client = new TouchdClient(daemons.url);
  t.after(() => client.close());
  const heard = [];
  const shutdown = new Promise((resolve) =>
    client.onMessage((message) => {
      heard.push(message);
      if (message.type === 'shutdown') resolve();
    }),
  );
  await shutdown;
  assert.deepEqual(heard.map((m) => m.type), ['action', 'action', 'shutdown']);
  assert.equal(await client.nextMessage(0.2), null);
});
