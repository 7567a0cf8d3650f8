// SceneSync against the real daemon: the first push is the whole scene, later ones only the
// subtrees that changed (`update`), so a touch held on a view the change left alone goes on; a
// refused push keeps the daemon's scene and its error clears once a later push is accepted.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SceneSync, TouchdClient, TouchdError } from '../touchd.js';
import { daemonFactory, kind, needsTouchd } from './daemon.mjs';
import { FingerScript } from './evemu.mjs';
import { nextOf } from './helpers.mjs';

const skip = needsTouchd();

const A = [400, 400];
const B_OLD = [1200, 300];
const B_NEW = [1700, 300];

/** A (touches published) and B (a tap) side by side, C (a tap) below; `b` moves B. */
function scene({ b = { x: 1000, y: 100, width: 400, height: 400 }, bTap = {}, c = true, aRecognizers } = {}) {
  const views = [
    { id: 'A', frame: { x: 100, y: 100, width: 600, height: 600 }, touches: true, ...(aRecognizers ? { recognizers: aRecognizers } : {}) },
    { id: 'B', frame: b, recognizers: [{ id: 'b-tap', type: 'tap', action: 'press-b', ...bTap }] },
  ];
  if (c) views.push({ id: 'C', frame: { x: 100, y: 800, width: 200, height: 200 }, recognizers: [{ id: 'c-tap', type: 'tap', action: 'press-c' }] });
  return { version: 1, windows: [{ id: 'main', size: { width: 1920, height: 1080 }, devices: ['*'], views }] };
}
const MOVED = { x: 1500, y: 100, width: 400, height: 400 };

/** The next pipeline message (notices of pushes and updates passed over). */
const nextPipeline = (client, type) => nextOf(client, type, { skip: ['reloaded', 'updated'] });

test("a layout change is pushed as updates: a touch held on a view it left alone goes on; a whole scene cancels it", { skip }, async (t) => {
  const script = new FingerScript({ start: 10 });
  const [held] = script.down([A]); // 10.0: a finger on A, held
  script.wait(0.6);
  script.tap(B_OLD); // 10.6: where B was: nothing
  script.wait(0.2);
  script.tap(B_NEW); // 10.85: where B is now
  script.wait(0.15);
  script.move([held], [[A[0] + 20, A[1]]]);
  script.wait(0.05);
  script.move([held], [[A[0] + 40, A[1]]]);
  script.wait(0.15);
  script.up([held]); // 11.25: A's touch ends
  script.wait(0.8);
  script.hold([A], 1); // 12.05-13.05: A again, for the whole scene
  const daemons = await daemonFactory(t);
  await daemons.start(script, { delay: 1.5 });
  const client = new TouchdClient(daemons.url);
  t.after(() => client.close());
  await client.subscribe({ types: ['touches', 'action'] });

  const sync = new SceneSync(client);
  const first = await sync.push(scene());
  assert.equal(first.accepted, true);
  assert.equal(first.updates, null); // the first push is whole
  assert.deepEqual([first.reply.views, first.reply.recognizers, first.reply.windows], [3, 2, [{ id: 'main', width: 1920, height: 1080 }]]);
  assert.deepEqual([sync.pushes, sync.updates, sync.error], [1, null, null]);

  const began = await nextPipeline(client, 'touches');
  assert.deepEqual(kind(began), ['touches', 'A', 'began']);

  // B moves while the finger is on A: one replace of B, A untouched.
  const moved = scene({ b: MOVED });
  const second = await sync.push(moved);
  assert.equal(second.accepted, true);
  assert.deepEqual(second.updates, [{ op: 'replace', view: moved.windows[0].views[1] }]);
  assert.deepEqual(
    [second.reply.op, second.reply.view, second.reply.parent, second.reply.index, second.reply.views, second.reply.recognizers],
    ['replace', 'B', 'main', 1, 3, 2],
  );
  assert.deepEqual([sync.pushes, sync.scene, sync.reply], [2, moved, second.reply]);
  assert.deepEqual(sync.updates, second.updates);

  // The finger on A goes on (moved, ended: never cancelled); the tap where B was hits nothing, the
  // one where B is now is B's.
  const after = [];
  while (after.at(-1)?.phase !== 'ended') after.push(await nextPipeline(client, ['touches', 'action']));
  assert.deepEqual(after.map(kind), [
    ['action', 'B', 'press-b'],
    ['touches', 'A', 'moved'],
    ['touches', 'A', 'moved'],
    ['touches', 'A', 'ended'],
  ]);
  assert.ok(Math.abs(after[0].location.x - B_NEW[0]) <= 1, `press-b at ${after[0].location.x}`);
  assert.equal(after[0].recognizer, 'b-tap');
  assert.deepEqual(after.slice(1).map((m) => m.touches[0].id), [began.touches[0].id, began.touches[0].id, began.touches[0].id]);

  // The same scene again: nothing is sent. After reset() it is pushed whole, which cancels the
  // touch held on A, as a new scene does.
  const again = await nextPipeline(client, 'touches');
  assert.deepEqual(kind(again), ['touches', 'A', 'began']);
  assert.equal(await sync.push(structuredClone(moved)), null);
  sync.reset();
  const whole = await sync.push(moved);
  assert.deepEqual([whole.accepted, whole.updates, whole.reply.views], [true, null, 3]);
  assert.deepEqual(kind(await nextPipeline(client, 'touches')), ['touches', 'A', 'cancelled']);
  assert.equal((await client.status()).counters.scenePushes, 2); // the first push and the last
});

test('a refused push keeps the scene; its error clears when a later push is accepted', { skip }, async (t) => {
  const daemons = await daemonFactory(t);
  await daemons.start();
  const client = new TouchdClient(daemons.url);
  t.after(() => client.close());
  await client.connect(10);
  const scenePushes = async () => (await client.status()).counters.scenePushes;
  const sync = new SceneSync(client);
  const s1 = scene();
  assert.equal((await sync.push(s1)).accepted, true);

  // A misspelt parameter: the update is refused, and so is the whole scene pushed instead; the
  // error is the scene's, placed by path.
  const misspelt = scene({ bTap: { numberOfTapsRequird: 2 } });
  const refused = await sync.push(misspelt);
  assert.equal(refused.accepted, false);
  assert.ok(refused.error instanceof TouchdError, String(refused.error));
  assert.equal(
    refused.error.message,
    "scene rejected, the old scene stays: scene.windows[0].views[1].recognizers[0].numberOfTapsRequird: error: unknown key 'numberOfTapsRequird' in tap recognizer 'b-tap' (did you mean 'numberOfTapsRequired'?)",
  );
  assert.deepEqual([sync.error, sync.scene, sync.pushes], [refused.error, s1, 1]);
  assert.equal(await sync.push(misspelt), null); // not sent again
  assert.equal(sync.error, refused.error);

  // Corrected: one update, accepted; the error clears.
  const corrected = scene({ bTap: { numberOfTapsRequired: 2 } });
  const accepted = await sync.push(corrected);
  assert.deepEqual(accepted.updates, [{ op: 'replace', recognizer: corrected.windows[0].views[1].recognizers[0] }]);
  assert.deepEqual([accepted.reply.op, accepted.reply.recognizer], ['replace', 'b-tap']);
  assert.deepEqual([sync.error, sync.scene, sync.pushes], [null, corrected, 2]);
  assert.equal(await scenePushes(), 1); // the first push only

  // C removed (the daemon takes it) and a misspelt key (it refuses it, and the whole scene): the
  // scene accepted last is pushed back, C with it.
  const bad = scene({ bTap: { numberOfTapsRequired: 2, allowableMovment: 5 }, c: false });
  const second = await sync.push(bad);
  assert.equal(second.accepted, false);
  assert.match(second.error.message, /^scene rejected, the old scene stays: scene\.windows\[0\]\.views\[1\]\.recognizers\[0\]\.allowableMovment: error: unknown key 'allowableMovment'/);
  assert.deepEqual([sync.error, sync.scene, sync.pushes], [second.error, corrected, 2]);
  assert.equal(await scenePushes(), 2); // the restore
  assert.equal((await client.setView('C', { alpha: 1 })).ok, true);
  const status = await client.status();
  assert.deepEqual([status.windows, status.counters.reloadFailures], [[{ id: 'main', width: 1920, height: 1080 }], 0]);

  // C removed for good: one remove, accepted, the error cleared.
  const withoutC = scene({ bTap: { numberOfTapsRequired: 2 }, c: false });
  const removed = await sync.push(withoutC);
  assert.deepEqual(removed.updates, [{ op: 'remove', view: 'C' }]);
  assert.deepEqual([removed.reply.op, removed.reply.view, removed.reply.views, removed.reply.recognizers], ['remove', 'C', 2, 1]);
  assert.equal(sync.error, null);
  await assert.rejects(client.setView('C', { alpha: 1 }), /^TouchdError: unknown view 'C'/);

  // The same object changed in place and pushed again: compared with the copy the daemon took.
  assert.notEqual(sync.scene, withoutC);
  withoutC.windows[0].views[1].frame = MOVED;
  const inPlace = await sync.push(withoutC);
  assert.deepEqual(inPlace.updates, [{ op: 'replace', view: withoutC.windows[0].views[1] }]);
  assert.deepEqual(sync.scene.windows[0].views[1].frame, MOVED);

  // A change the daemon cannot take as updates in order (the tap moves from B to A, both views
  // changed): the whole scene instead, accepted.
  const swapped = structuredClone(withoutC);
  const [a, b] = swapped.windows[0].views;
  a.frame = { ...a.frame, width: 500 };
  a.recognizers = b.recognizers;
  delete b.recognizers;
  b.alpha = 0.5;
  const fallback = await sync.push(swapped);
  assert.deepEqual([fallback.accepted, fallback.updates, fallback.reply.views, fallback.reply.recognizers], [true, null, 2, 1]);
  assert.deepEqual([sync.error, sync.scene, sync.pushes], [null, swapped, 5]);
  assert.equal(await scenePushes(), 3);
});
