// Reconnection, missed messages (seq gaps) and the daemon's gap notice, against the real daemon
// over its WebSocket endpoint: the same cases as clients/python/tests/test_reconnect.py.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ConnectionLost, PIPELINE_TYPES, TouchdClient, TouchdError, defaultWebSocket } from '../touchd.js';
import { PAD, TAPS_MESSAGES, daemonFactory, freePort, kind, needsTouchd, tapsScript } from './daemon.mjs';
import { FingerScript } from './evemu.mjs';
import { FAST, nextOf, readUntilSeq, sleep } from './helpers.mjs';

const skip = needsTouchd();

test('reconnects to a restarted daemon and subscribes again', { skip }, async (t) => {
  const script = tapsScript(0.15);
  const daemons = await daemonFactory(t);
  const first = await daemons.start(script, { loop: true, speed: 2, delay: 0.3 });
  const client = new TouchdClient(daemons.url, { backoff: FAST });
  t.after(() => client.close());
  const oldInstance = (await client.connect(10)).instance;
  assert.deepEqual((await client.subscribe({ types: 'touches' })).types, ['touches']);
  const before = await readUntilSeq(client, 8);
  assert.ok(before.every((m) => m.type === 'touches'), JSON.stringify(before));

  assert.equal(await first.stop('SIGTERM'), 0);
  await nextOf(client, 'shutdown', { skip: ['touches'] });
  await daemons.start(script, { loop: true, speed: 2, delay: 1.5 });

  const reconnected = await nextOf(client, 'reconnected');
  assert.equal(reconnected.restarted, true);
  assert.equal(reconnected.previousInstance, oldInstance);
  assert.equal(reconnected.instance, client.hello.instance);
  assert.notEqual(reconnected.instance, oldInstance);
  assert.equal(reconnected.hello, client.hello);
  assert.equal(reconnected.lastSeq, null);
  assert.equal(reconnected.resubscribeError, null);
  assert.ok(reconnected.attempts >= 1);
  assert.deepEqual(client.subscription, { types: 'touches' });

  // The new daemon counts from 1, and the filter is back: touches only (3 and 4 are actions).
  const after = [];
  for (let i = 0; i < 4; i++) after.push(await nextOf(client, 'touches'));
  assert.deepEqual(
    after.map((m) => [m.seq, ...kind(m)]),
    [
      [1, 'touches', 'door', 'began'],
      [2, 'touches', 'door', 'cancelled'],
      [5, 'touches', 'pad', 'began'],
      [6, 'touches', 'pad', 'ended'],
    ],
  );
  const status = await client.status();
  assert.equal(status.clients, 1);
  assert.equal(status.counters.clientsAccepted, 1);
});

test('missed messages after a dropped connection (exact)', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start(tapsScript(0.1), { loop: true, delay: 0.3 });
  const client = new TouchdClient(daemons.url, { backoff: FAST });
  t.after(() => client.close());
  const instance = (await client.connect(10)).instance;
  await client.subscribe({ types: PIPELINE_TYPES }); // everything: the count is exact
  const before = await readUntilSeq(client, 8);
  assert.deepEqual(before.map((m) => m.seq), before.map((_, i) => i + 1));
  assert.deepEqual(before.map(kind), before.map((m) => TAPS_MESSAGES[(m.seq - 1) % 6]));

  // The connection drops; the client waits 1.6 s before it reconnects: longer than a pass of the
  // loop (0.45 s of taps, then 1 s apart), so at least one pass's messages go by unread.
  client.backoff.initial = client.backoff.maximum = 1.6;
  client.backoff.jitter = 0;
  client.dropConnection();
  assert.equal(client.connected, false);
  let message;
  const queued = [];
  for (;;) {
    message = await client.nextMessage(10);
    assert.notEqual(message, null);
    if (message.type === 'reconnected') break;
    queued.push(message); // read before the connection dropped
  }
  const lastSeen = (queued.length ? queued : before).at(-1).seq;
  assert.equal(message.restarted, false);
  assert.equal(message.instance, instance);
  assert.equal(message.previousInstance, instance);
  assert.equal(message.lastSeq, lastSeen);

  const missed = await nextOf(client, 'missed');
  const first = await nextOf(client, ['action', 'touches']);
  assert.equal(missed.lastSeq, lastSeen);
  assert.equal(missed.seq, first.seq);
  assert.equal(missed.count, first.seq - lastSeen - 1);
  assert.ok(missed.count >= 2, `missed ${missed.count}`);
  assert.equal(missed.exact, true);
  // What comes after is whole again, and is what the looping recording publishes at that seq.
  const after = [first];
  for (let i = 0; i < 7; i++) after.push(await client.nextMessage(10));
  assert.deepEqual(after.map((m) => m.seq), after.map((_, i) => first.seq + i));
  assert.deepEqual(after.map(kind), after.map((m) => TAPS_MESSAGES[(m.seq - 1) % 6]));
});

test('missed is an upper bound with a filter', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start(tapsScript(0.1), { loop: true, delay: 0.3 });
  const client = new TouchdClient(daemons.url, { backoff: FAST });
  t.after(() => client.close());
  await client.subscribe({ types: 'action', views: 'lamp' });
  const before = await readUntilSeq(client, 10);
  assert.deepEqual(before.map((m) => [m.seq, m.action]), [[4, 'toggle-lamp'], [10, 'toggle-lamp']]);
  client.backoff.initial = client.backoff.maximum = 0.8;
  client.backoff.jitter = 0;
  client.dropConnection();
  await nextOf(client, 'reconnected');
  const missed = await nextOf(client, 'missed');
  const lamp = await nextOf(client, 'action');
  assert.equal(missed.exact, false);
  assert.equal(lamp.seq % 6, 4);
  assert.equal(missed.seq, lamp.seq);
  // One lamp action per 6 messages: seq counted them all.
  assert.equal(missed.count, lamp.seq - 10 - 1);
  assert.ok(missed.count >= 5, `missed ${missed.count}`);
});

test('the gap notice when the client falls behind (overflow skip)', { skip }, async (t) => {
  // 2000 touches messages in 1 s (at --speed 2), then after 1.5 s two taps. The test holds
  // Node's event loop while the drag passes, so nothing is read; the pause lets the client catch
  // up (and get its gap notice) before the daemon stops at the end of the replay.
  const script = new FingerScript({ start: 10, sampleRate: 1000 });
  script.drag(PAD, [PAD[0] + 1200, PAD[1] + 150], 2.0);
  script.wait(3);
  script.tap(PAD);
  script.wait(0.2);
  script.tap(PAD);
  const daemons = await daemonFactory(t);
  await daemons.start(script, { exitAfterReplay: true, speed: 2, delay: 0.3, extra: ['--client-buffer', '4096'] });
  const client = new TouchdClient(daemons.url, { reconnect: false });
  t.after(() => client.close());
  const reply = await client.subscribe({ types: 'touches', overflow: 'skip' });
  assert.equal(reply.overflow, 'skip');
  // Block this thread while the drag passes: the socket is not read.
  const until = Date.now() + 1500;
  while (Date.now() < until) {
    // busy on purpose
  }
  const messages = [];
  while (messages.at(-1)?.type !== 'shutdown') {
    const message = await client.nextMessage(10);
    assert.notEqual(message, null);
    messages.push(message);
  }
  const gaps = messages.flatMap((m, i) => (m.type === 'gap' ? [i] : []));
  assert.ok(gaps.length > 0, 'no gap notice');
  for (const i of gaps) {
    const [before, gap, after] = [messages[i - 1], messages[i], messages[i + 1]];
    assert.ok(gap.skipped > 0);
    assert.deepEqual(gap, { type: 'gap', skipped: gap.skipped });
    assert.equal(after.seq, before.seq + gap.skipped + 1);
  }
  const touches = messages.filter((m) => m.type === 'touches');
  const skipped = gaps.reduce((sum, i) => sum + messages[i].skipped, 0);
  assert.deepEqual([touches[0].seq, touches[0].phase], [1, 'began']);
  assert.deepEqual(touches.slice(-4).map((m) => m.phase), ['began', 'ended', 'began', 'ended']);
  assert.equal(touches.length + skipped, touches.at(-1).seq); // nothing lost but what the notices say
  assert.ok(skipped > 1000, `skipped ${skipped}`);
});

test('commands in flight fail with ConnectionLost; the next one waits for the reconnection', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  const daemon = await daemons.start();
  const client = new TouchdClient(daemons.url, { backoff: FAST });
  t.after(() => client.close());
  await client.connect(10);
  // A calibration waits for touches that never come: its reply is outstanding when the daemon
  // stops.
  const calibration = client.calibrate('main', [[100, 100], [1800, 100], [960, 1000]], { timeout: 30 }).catch((e) => e);
  await sleep(0.3);
  await daemon.stop('SIGTERM');
  const error = await calibration;
  assert.ok(error instanceof ConnectionLost, String(error));
  assert.match(error.message, /'calibrate'/);
  // Issued while the daemon is down: sent once it is back.
  const ping = client.ping();
  await sleep(0.3);
  await daemons.start();
  assert.deepEqual(await ping, { type: 'reply', id: 2, ok: true }); // calibrate was 1
  const events = [];
  for (let m = await client.nextMessage(1); m !== null; m = await client.nextMessage(0.2)) events.push(m);
  assert.ok(events.some((m) => m.type === 'reconnected' && m.restarted), JSON.stringify(events));
});

test('without reconnect, connect() rejects when nobody listens', { skip }, async () => {
  const port = await freePort();
  const client = new TouchdClient(`ws://127.0.0.1:${port}/`, { reconnect: false });
  const error = await client.connect(10).catch((e) => e);
  assert.ok(error instanceof ConnectionLost, String(error));
  assert.match(error.message, /cannot connect to touchd at ws:\/\/127\.0\.0\.1:\d+\//);
  await assert.rejects(client.ping(), ConnectionLost);
  client.close();
});

test('with reconnect, connect() waits for a daemon that starts later', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  const client = new TouchdClient(daemons.url, { backoff: FAST });
  t.after(() => client.close());
  const hello = client.connect(20);
  await sleep(0.5);
  await daemons.start();
  assert.equal((await hello).version, 1);
  assert.equal(client.connections, 1);
});

test('a disallowed Origin is refused for good, with the daemon message', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start(null, { extra: ['--websocket-origin', 'http://kiosk.example'] });
  // A browser would send its page's Origin; Node's WebSocket (undici's) and the ws package take it
  // as a header, in the options after the URL.
  const Native = defaultWebSocket();
  class FromPage extends Native {
    constructor(url) {
      super(url, { headers: { Origin: 'http://elsewhere.example' } });
    }
  }
  const client = new TouchdClient(daemons.url, { WebSocket: FromPage, backoff: FAST });
  t.after(() => client.close());
  const error = await client.connect(10).catch((e) => e);
  assert.ok(error instanceof TouchdError, String(error));
  assert.match(error.message, /origin/i);
  assert.equal(error.id, null);
  // Not tried again: the iterator ends with the same error.
  await assert.rejects(client.nextMessage(1), TouchdError);
  // The listed origin is let in.
  class FromKiosk extends Native {
    constructor(url) {
      super(url, { headers: { Origin: 'http://kiosk.example' } });
    }
  }
  const kiosk = new TouchdClient(daemons.url, { WebSocket: FromKiosk });
  t.after(() => kiosk.close());
  assert.equal((await kiosk.connect(10)).version, 1);
});
