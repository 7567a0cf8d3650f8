// The web kiosk end to end: touchd with its WebSocket endpoint replays web-kiosk.evemu, the page
// (examples/web-kiosk) runs in headless Chromium driven over the DevTools protocol. The page must
// push the scene of its elements, receive the recorded gestures as DOM events and show them; the
// messages it got must be those `touchctl replay --scene` gives for the scene it pushed. A
// screenshot is kept: .build/artifacts/web-kiosk.png (with the pushed scene and the messages).
//
// Skipped, saying why, without touchd (built with --websocket) or without Chromium
// (scripts/setup.sh installs Debian's `chromium`; $CHROMIUM names another).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { test } from 'node:test';

import { TouchdClient } from '../../../clients/js/touchd.js';
import { Daemon, REPOSITORY, findTouchd, freePort } from '../../../clients/js/test/daemon.mjs';
import { FingerScript } from '../../../clients/js/test/evemu.mjs';
import { DEVICE, EXPECTED, HEIGHT, PINCH_CHANGES, PLACES, WIDTH, kioskScript } from '../make-recording.mjs';
import { findChromium, launch } from './cdp.mjs';

const EXAMPLE = join(REPOSITORY, 'examples', 'web-kiosk');
const ARTIFACTS = join(REPOSITORY, '.build', 'artifacts');

function skipReason() {
  const { binary, reason } = findTouchd();
  if (!binary) return reason;
  if (!findChromium()) {
    if (process.env.CHROMIUM) return `CHROMIUM=${process.env.CHROMIUM} is not a program on the PATH`;
    return 'Chromium is not installed (scripts/setup.sh installs Debian\'s chromium when apt can; set CHROMIUM to use another)';
  }
  return false;
}

function touchctl() {
  if (process.env.TOUCHCTL_BIN) return process.env.TOUCHCTL_BIN;
  const beside = join(dirname(process.env.TOUCHD_BIN || join(REPOSITORY, '.build', 'debug', 'touchd')), 'touchctl');
  return beside;
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Serves the example and the client (only those) from the repository, on loopback. */
function serve() {
  const allowed = [join(REPOSITORY, 'examples', 'web-kiosk') + sep, join(REPOSITORY, 'clients', 'js') + sep];
  const server = createServer((request, response) => {
    let path = normalize(join(REPOSITORY, decodeURIComponent(new URL(request.url, 'http://x').pathname)));
    if (path.endsWith(sep)) path = join(path, 'index.html');
    if (!allowed.some((dir) => path.startsWith(dir)) || !existsSync(path) || !statSync(path).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    createReadStream(path).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The example page served on loopback in headless Chromium (`?touchd=` the daemon's WebSocket,
 * then `query`), and a daemon on the example's start scene that allows the page's origin and
 * replays `recording` `delay` s after it starts, its files in `directory`; all stopped after the
 * test. The browser comes first: the page waits for the daemon (its client retries every 0.5 s at
 * most). */
async function openKiosk(t, { recording, directory, delay, query = '' }) {
  const server = await serve();
  t.after(() => server.close());
  const origin = `http://127.0.0.1:${server.address().port}`;
  const wsPort = await freePort();
  const wsURL = `ws://127.0.0.1:${wsPort}/`;
  const browser = await launch(findChromium(), { width: WIDTH, height: HEIGHT });
  t.after(() => browser.close());
  const { page } = browser;
  await page.send('Page.navigate', { url: `${origin}/examples/web-kiosk/?touchd=${encodeURIComponent(wsURL)}${query}` });
  await page.waitFor('window.kiosk && document.readyState === "complete"', { what: 'the page to load' });
  mkdirSync(directory, { recursive: true });
  const daemon = new Daemon({
    binary: findTouchd().binary,
    directory,
    scene: join(EXAMPLE, 'start-scene.yaml'),
    socket: join(directory, 'touchd.sock'),
    port: wsPort,
    args: ['--websocket-origin', origin, '--replay', recording, '--replay-delay', String(delay)],
  });
  await daemon.start();
  t.after(() => daemon.stop());
  return { page, wsURL };
}

const summary = (m) => [m.action, m.view, m.gesture, m.state, ...(m.direction ? [m.direction] : [])];

test('the web kiosk pushes its scene, gets the recorded gestures and shows them', { skip: skipReason(), timeout: 180_000 }, async (t) => {
  // The committed recording is the generator's.
  const recording = join(EXAMPLE, 'web-kiosk.evemu');
  assert.equal(readFileSync(recording, 'utf8'), kioskScript().evemuText(), 'web-kiosk.evemu is stale: run node examples/web-kiosk/make-recording.mjs');

  const directory = join(ARTIFACTS, 'web-kiosk-run');
  const { page, wsURL } = await openKiosk(t, { recording, directory, delay: 4 });
  assert.deepEqual(await page.evaluate('[innerWidth, innerHeight]'), [WIDTH, HEIGHT]);

  // The page connects and pushes its scene before the replay begins.
  const pushed = await page.waitFor('kiosk.page.pushes > 0 && kiosk.page.scene', { timeout: 10, what: 'the page to push its scene' });
  assert.equal(await page.evaluate('kiosk.page.pushes'), 1);
  assert.deepEqual(await page.evaluate('kiosk.state.sceneErrors'), []);
  const window = pushed.windows[0];
  assert.deepEqual([window.id, window.size, window.devices], ['main', { width: WIDTH, height: HEIGHT }, ['touchd web-kiosk*']]);
  assert.ok(DEVICE.startsWith('touchd web-kiosk'));
  const [kiosk] = window.views;
  assert.deepEqual([kiosk.id, kiosk.frame, kiosk.multipleTouchEnabled], ['kiosk', { x: 0, y: 0, width: 1280, height: 800 }, true]);
  assert.deepEqual(kiosk.recognizers, [
    { id: 'admin', type: 'longPress', action: 'open-admin', numberOfTouchesRequired: 5, minimumPressDuration: 2, allowableMovement: 40 },
  ]);
  const byId = Object.fromEntries(kiosk.views.map((v) => [v.id, v]));
  assert.deepEqual(Object.keys(byId), ['buy', 'map', 'help', 'carousel', 'photo']);
  assert.deepEqual(byId.buy, {
    id: 'buy',
    frame: { x: 40, y: 90, width: 260, height: 110 },
    hitOutset: 8,
    recognizers: [{ id: 'buy-tap', type: 'tap', action: 'buy-ticket' }],
    accessibility: { label: 'Buy a ticket', traits: ['button'] },
  });
  // Every view labelled from the page's ARIA (PageScene's accessibilityOf); the root, main, is
  // named by nothing: its text (the status lines, the log, which change) labels no view.
  assert.equal(kiosk.accessibility, undefined);
  assert.deepEqual(Object.fromEntries(kiosk.views.map((v) => [v.id, v.accessibility])), {
    buy: { label: 'Buy a ticket', traits: ['button'] },
    map: { label: 'Show the map', traits: ['button'] },
    help: { label: 'Call for help', hint: 'A member of staff comes to this kiosk.', traits: ['button'] },
    carousel: { label: 'Exhibitions', hint: 'Swipe left or right for the next or previous exhibition.' },
    photo: { label: 'Photo of the museum', hint: 'Pinch with two fingers to zoom in or out.' },
  });
  assert.deepEqual(byId.carousel.frame, { x: 40, y: 230, width: 840, height: 260 });
  assert.deepEqual(byId.carousel.recognizers.map((r) => [r.id, r.action, r.direction]), [
    ['carousel-next', 'next-slide', 'left'],
    ['carousel-previous', 'previous-slide', 'right'],
  ]);
  assert.deepEqual([byId.photo.frame, byId.photo.recognizers[0].type], [{ x: 40, y: 520, width: 840, height: 250 }, 'pinch']);

  // The daemon has it: its status, asked over the same endpoint by another client.
  const observer = new TouchdClient(wsURL, { reconnect: false });
  t.after(() => observer.close());
  const status = await observer.status();
  assert.equal(status.counters.scenePushes, 1);
  assert.deepEqual(status.windows, [{ id: 'main', width: WIDTH, height: HEIGHT }]);
  assert.equal(status.replay, recording);
  // The page's own text after the push (the connection, the scene's counts) pushed nothing more.
  await page.waitFor('document.getElementById("scene-status").textContent.startsWith("scene pushed")', { what: 'the scene status' });
  await page.evaluate('kiosk.page.refresh()');
  assert.deepEqual(await page.evaluate('[kiosk.page.pushes, kiosk.page.updates]'), [1, null]);

  // The gestures arrive: the admin gesture is the last.
  await page.waitFor('kiosk.state.actions.some((m) => m.action === "open-admin" && m.state === "ended")', {
    timeout: 60,
    what: 'the recorded gestures',
  });
  const actions = await page.evaluate('kiosk.state.actions');
  const shown = await page.evaluate(`({
    log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
    carousel: kiosk.state.carousel,
    track: document.getElementById('track').style.transform,
    zoom: kiosk.state.zoom,
    zoomLabel: document.getElementById('zoom-label').textContent,
    admin: !document.getElementById('admin').hidden,
    scene: document.getElementById('scene-status').textContent,
    connection: document.getElementById('connection').textContent,
    pushes: kiosk.page.pushes,
  })`);

  // Kept whatever follows: the picture, the scene and what the page received.
  mkdirSync(ARTIFACTS, { recursive: true });
  const png = await page.screenshot();
  writeFileSync(join(ARTIFACTS, 'web-kiosk.png'), png);
  writeFileSync(join(ARTIFACTS, 'web-kiosk-scene.json'), JSON.stringify(pushed, null, 2) + '\n');
  writeFileSync(join(ARTIFACTS, 'web-kiosk-actions.jsonl'), actions.map((m) => JSON.stringify(m)).join('\n') + '\n');
  assert.deepEqual(png.subarray(0, 8), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  assert.ok(png.length > 20_000, `a screenshot of ${png.length} bytes`);

  // What arrived, in order: the pinch's changes folded into one.
  const folded = actions.map(summary).filter((s, i, all) => !(s[3] === 'changed' && all[i - 1]?.[3] === 'changed'));
  assert.deepEqual(folded, EXPECTED);
  const changes = actions.filter((m) => m.action === 'zoom' && m.state === 'changed');
  assert.ok(changes.length >= PINCH_CHANGES, `${changes.length} pinch changes`);
  const pinchEnd = actions.find((m) => m.action === 'zoom' && m.state === 'ended');
  // 360 pt apart over the distance when the pinch began (past its 8 pt start distance): about 2.7.
  assert.ok(pinchEnd.scale > 2.5 && pinchEnd.scale < 3, `pinch scale ${pinchEnd.scale}`);
  assert.deepEqual(actions.map((m) => m.seq), actions.map((_, i) => i + 1)); // nothing but actions was published
  const admin = actions.find((m) => m.action === 'open-admin');
  assert.equal(admin.numberOfTouches, 5);

  // They are what touchctl replay gives for the scene the page pushed, message for message.
  const scenePath = join(directory, 'pushed-scene.json');
  writeFileSync(scenePath, JSON.stringify(pushed));
  const replay = spawnSync(touchctl(), ['replay', '--scene', scenePath, recording], { encoding: 'utf8' });
  assert.equal(replay.status, 0, `${touchctl()}: ${replay.error ?? replay.stderr}`);
  const replayed = replay.stdout.trim().split('\n').map((line) => JSON.parse(line));
  const untimed = (m) => ({ ...m, time: undefined });
  assert.deepEqual(actions.map(untimed), replayed.map(untimed));
  // Times are the recording's, but for the long press's beginning: a timer's, which fires on the
  // daemon's clock (docs/protocol.md), a little after the replay's virtual one.
  actions.forEach((m, i) => {
    if (m.action === 'open-admin' && m.state === 'began') {
      assert.ok(m.time >= replayed[i].time && m.time - replayed[i].time < 0.25, `long press began at ${m.time}, replay ${replayed[i].time}`);
    } else assert.equal(m.time, replayed[i].time);
  });

  // And the page shows them.
  assert.equal(shown.log.length, EXPECTED.length); // the pinch's changes on one line, as in EXPECTED
  assert.match(shown.log[3], new RegExp(`^zoom pinch changed ×\\d\\.\\d\\d \\(${changes.length}\\) on photo · #\\d+$`));
  assert.match(shown.log.at(-1), /^buy-ticket tap ended on buy · #1$/);
  assert.match(shown.log[0], /^open-admin longPress ended on kiosk · #\d+$/);
  assert.ok(shown.log.some((line) => /^next-slide swipe ended left on carousel/.test(line)));
  assert.ok(shown.log.some((line) => /^zoom pinch ended ×\d\.\d\d on photo/.test(line)));
  assert.equal(shown.carousel, 1); // left, left, right
  assert.equal(shown.track, 'translateX(-840px)');
  assert.ok(Math.abs(shown.zoom - pinchEnd.scale) < 1e-9, `zoom ${shown.zoom}`);
  assert.equal(shown.zoomLabel, `pinch to zoom · ×${pinchEnd.scale.toFixed(2)}`);
  assert.equal(shown.admin, true);
  assert.equal(shown.scene, 'scene pushed: 6 views, 7 recognizers, 1280×800');
  assert.equal(shown.connection, 'touchd connected');
  assert.equal(shown.pushes, 1); // the page's own feedback (colours, inner transforms) moved no view
  assert.deepEqual(page.errors, []);
});

test('a page whose origin is not allowed is refused and says so', { skip: skipReason(), timeout: 120_000 }, async (t) => {
  const server = await serve();
  t.after(() => server.close());
  const origin = `http://127.0.0.1:${server.address().port}`;
  const wsPort = await freePort();
  const directory = join(ARTIFACTS, 'web-kiosk-origin-run');
  mkdirSync(directory, { recursive: true });
  const daemon = new Daemon({
    binary: findTouchd().binary,
    directory,
    scene: join(EXAMPLE, 'start-scene.yaml'),
    socket: join(directory, 'touchd.sock'),
    port: wsPort,
    args: ['--websocket-origin', 'http://kiosk.invalid'],
  });
  await daemon.start();
  t.after(() => daemon.stop());
  const browser = await launch(findChromium(), { width: WIDTH, height: HEIGHT });
  t.after(() => browser.close());
  const { page } = browser;
  await page.send('Page.navigate', { url: `${origin}/examples/web-kiosk/?touchd=${encodeURIComponent(`ws://127.0.0.1:${wsPort}/`)}` });
  const text = await page.waitFor(
    'document.getElementById("connection")?.textContent.startsWith("touchd: ") && document.getElementById("connection").textContent',
    { what: 'the refusal on the page' },
  );
  assert.match(text, /origin/i);
  assert.equal(await page.evaluate('kiosk.page.pushes'), 0);
  assert.equal(await page.evaluate('kiosk.client.closed || kiosk.client.connected'), false);
});

test('the page pushes its scene again when its layout changes, after a refusal and after a daemon restart', { skip: skipReason(), timeout: 120_000 }, async (t) => {
  const server = await serve();
  t.after(() => server.close());
  const origin = `http://127.0.0.1:${server.address().port}`;
  const wsPort = await freePort();
  const wsURL = `ws://127.0.0.1:${wsPort}/`;
  const directory = join(ARTIFACTS, 'web-kiosk-layout-run');
  mkdirSync(directory, { recursive: true });
  const startDaemon = () =>
    new Daemon({
      binary: findTouchd().binary,
      directory,
      scene: join(EXAMPLE, 'start-scene.yaml'),
      socket: join(directory, 'touchd.sock'),
      port: wsPort,
      args: ['--websocket-origin', origin],
    }).start();
  let daemon = await startDaemon();
  t.after(() => daemon.stop());
  const browser = await launch(findChromium(), { width: WIDTH, height: HEIGHT });
  t.after(() => browser.close());
  const { page } = browser;
  await page.send('Page.navigate', { url: `${origin}/examples/web-kiosk/?touchd=${encodeURIComponent(wsURL)}` });
  await page.waitFor('window.kiosk && kiosk.page.pushes === 1', { what: 'the first push' });
  const view = (id) => page.evaluate(`(function find(views) {
    for (const v of views) { if (v.id === ${JSON.stringify(id)}) return v; const found = find(v.views ?? []); if (found) return found; }
    return null; })(kiosk.page.scene.windows[0].views)`);
  const pushes = (n, what) => page.waitFor(`kiosk.page.pushes === ${n}`, { timeout: 10, what });

  const updates = () => page.evaluate('kiosk.page.updates');
  assert.equal(await updates(), null); // the first push is the whole scene

  // A view moves (a style change): pushed again with its new frame, as one update of that view.
  await page.evaluate('document.getElementById("help").style.left = "610px"');
  await pushes(2, 'the push after a view moved');
  assert.deepEqual((await view('help')).frame, { x: 610, y: 90, width: 260, height: 110 });
  assert.deepEqual(await updates(), [{ op: 'replace', view: await view('help') }]);

  // A misspelt parameter: refused by the daemon, placed by path, shown on the page; not sent again.
  await page.evaluate('document.getElementById("map").dataset.touchdNumberOfTapsRequird = "2"');
  const refusal = await page.waitFor('kiosk.state.sceneErrors[0]', { timeout: 10, what: 'the refusal' });
  assert.match(
    refusal,
    /^scene rejected, the old scene stays: scene\.windows\[0\]\.views\[0\]\.views\[1\]\.recognizers\[0\]\.numberOfTapsRequird: error: unknown key 'numberOfTapsRequird' in tap recognizer 'map-tap' \(did you mean 'numberOfTapsRequired'\?\)$/,
  );
  assert.equal(await page.evaluate('document.getElementById("scene-status").className'), 'error');
  assert.equal(await page.evaluate('kiosk.page.pushes'), 2);
  // Corrected: accepted.
  await page.evaluate(`(() => { const map = document.getElementById("map");
    delete map.dataset.touchdNumberOfTapsRequird; map.dataset.touchdNumberOfTapsRequired = "2"; })()`);
  await pushes(3, 'the corrected scene');
  assert.deepEqual((await view('map')).recognizers, [{ id: 'map-tap', type: 'tap', action: 'show-map', numberOfTapsRequired: 2 }]);
  assert.deepEqual(await updates(), [{ op: 'replace', recognizer: (await view('map')).recognizers[0] }]);
  assert.equal(await page.evaluate('kiosk.page.error'), null); // the refusal is over

  // An element added, then hidden.
  await page.evaluate(`(() => { const extra = document.createElement("button");
    extra.id = "extra"; extra.dataset.touchdType = "tap"; extra.textContent = " More ";
    extra.style = "position: absolute; left: 40px; top: 10px; width: 100px; height: 40px";
    document.getElementById("kiosk").append(extra); })()`);
  await pushes(4, 'the push with the new element');
  assert.deepEqual(await view('extra'), {
    id: 'extra',
    frame: { x: 40, y: 10, width: 100, height: 40 },
    recognizers: [{ id: 'extra-tap', type: 'tap', action: 'extra' }],
    accessibility: { label: 'More', traits: ['button'] },
  });
  assert.deepEqual(await updates(), [{ op: 'add', view: await view('extra'), parent: 'kiosk', index: 5 }]);
  await page.evaluate('document.getElementById("extra").style.display = "none"');
  await pushes(5, 'the push with the element hidden');
  assert.equal((await view('extra')).hidden, true);
  assert.deepEqual(await updates(), [{ op: 'replace', view: await view('extra') }]);

  // Accessibility: an ARIA state changed is pushed (one `replace` of that view); the page's own
  // text outside the views' names (the connection line, the log) pushes nothing.
  await page.evaluate('document.getElementById("buy").setAttribute("aria-disabled", "true")');
  await pushes(6, 'the push after buy was disabled');
  assert.deepEqual((await view('buy')).accessibility, { label: 'Buy a ticket', traits: ['button', 'notEnabled'] });
  assert.deepEqual(await updates(), [{ op: 'replace', view: await view('buy') }]);
  await page.evaluate(`(() => { document.getElementById("connection").textContent = "touchd connected, checked";
    document.getElementById("log").append(Object.assign(document.createElement("li"), { textContent: "a line" })); })()`);
  await page.evaluate('kiosk.page.refresh()');
  assert.equal(await page.evaluate('kiosk.page.pushes'), 6);
  const counting = new TouchdClient(wsURL, { reconnect: false });
  assert.equal((await counting.status()).counters.scenePushes, 1); // one whole scene so far
  counting.close();

  // The viewport changes: the window's size follows, in a whole scene.
  await page.send('Emulation.setDeviceMetricsOverride', { width: 1024, height: 768, deviceScaleFactor: 1, mobile: false });
  await pushes(7, 'the push after the viewport changed');
  assert.deepEqual(await page.evaluate('kiosk.page.scene.windows[0].size'), { width: 1024, height: 768 });
  assert.equal(await updates(), null);

  // The daemon restarts with its scene file: the page connects again and pushes its scene.
  assert.equal(await daemon.stop(), 0);
  daemon = await startDaemon();
  await pushes(8, 'the push after the daemon restarted');
  assert.equal(await updates(), null); // whole, to the restarted daemon
  const observer = new TouchdClient(wsURL, { reconnect: false });
  t.after(() => observer.close());
  const status = await observer.status();
  assert.equal(status.counters.scenePushes, 1);
  assert.deepEqual(status.windows, [{ id: 'main', width: 1024, height: 768 }]);
  assert.equal(await page.evaluate('document.getElementById("connection").textContent'), 'touchd connected');
  assert.deepEqual(page.errors, []);
});

/** The touches of an evemu recording of a virtual touchscreen, in the order they went down: where
 * (window points of a `width` × `height` window over 0...4095 axes) and whether they were cancelled
 * (MT_TOOL_PALM before the lift: what touchd sends for a touch a recognizer claimed). */
function forwardedTouches(text, width, height) {
  const touches = [];
  const slots = new Map(); // slot -> touch
  let slot = 0;
  const point = (units, size) => Math.round(((units + 0.5) / 4096) * size);
  for (const line of text.split('\n')) {
    const match = /^E: \S+ (\w{4}) (\w{4}) (-?\d+)/.exec(line);
    if (!match || parseInt(match[1], 16) !== 3) continue; // EV_ABS only
    const [code, value] = [parseInt(match[2], 16), Number(match[3])];
    if (code === 0x2f) slot = value; // ABS_MT_SLOT
    else if (code === 0x39 && value >= 0) {
      const touch = { x: null, y: null, cancelled: false };
      touches.push(touch);
      slots.set(slot, touch);
    } else if (code === 0x39) slots.delete(slot);
    else if (code === 0x37 && value === 2 && slots.has(slot)) slots.get(slot).cancelled = true; // ABS_MT_TOOL_TYPE palm
    else if (code === 0x35 && slots.get(slot)?.x === null) slots.get(slot).x = point(value, width);
    else if (code === 0x36 && slots.get(slot)?.y === null) slots.get(slot).y = point(value, height);
  }
  return touches;
}

test('a page with forward: pushes a forwarding window; the touches its recognizers leave go on to the compositor', { skip: skipReason(), timeout: 120_000 }, async (t) => {
  // A tap on the log panel (no view of its own: the page's, through the compositor), a tap on
  // buy (touchd's tap), the admin hold (touchd's five-finger long press).
  const panel = [1080, 400];
  const script = new FingerScript({ width: WIDTH, height: HEIGHT, start: 10, name: DEVICE });
  script.tap(panel);
  script.wait(0.6);
  script.tap(PLACES.buy);
  script.wait(0.6);
  script.hold(PLACES.admin, 2.5);
  script.wait(0.3);
  const directory = join(ARTIFACTS, 'web-kiosk-forward-run');
  mkdirSync(directory, { recursive: true });
  const recording = script.write(join(directory, 'forward.evemu'));

  const query = `&forward=${encodeURIComponent('Kiosk touchscreen')}`;
  const { page, wsURL } = await openKiosk(t, { recording, directory, delay: 3, query });

  // The window forwards, and does not also grab (forwarding grabs once the virtual device exists).
  const pushed = await page.waitFor('kiosk.page.pushes > 0 && kiosk.page.scene', { timeout: 10, what: 'the page to push its scene' });
  const [window] = pushed.windows;
  assert.deepEqual([window.forward, window.grab, window.devices], [{ name: 'Kiosk touchscreen' }, undefined, ['touchd web-kiosk*']]);
  assert.deepEqual([await page.evaluate('kiosk.page.updates'), await page.evaluate('kiosk.page.error')], [null, null]);
  // The daemon took it: a forwarding window, and no physical touchscreen of it here to grab and
  // give a virtual one (the replayed recording is no input device), so none is grabbed or forwarded.
  const observer = new TouchdClient(wsURL, { reconnect: false });
  t.after(() => observer.close());
  const status = await observer.status();
  assert.deepEqual([status.counters.scenePushes, status.replay, status.devices], [1, recording, []]);

  // touchd's gestures still fire for the page.
  await page.waitFor('kiosk.state.actions.some((m) => m.action === "open-admin" && m.state === "ended")', { timeout: 30, what: 'the admin gesture' });
  const actions = await page.evaluate('kiosk.state.actions');
  assert.deepEqual(actions.map(summary), [
    ['buy-ticket', 'buy', 'tap', 'ended'],
    ['open-admin', 'kiosk', 'longPress', 'began'],
    ['open-admin', 'kiosk', 'longPress', 'ended'],
  ]);

  // What the virtual touchscreen gets for the scene the page pushed, as touchctl replay --forward
  // computes it with the daemon's code: the panel's tap goes through; buy's tap and the admin hold
  // are claimed by touchd's recognizers and cancelled (palm, then lift), never a tap for the page.
  const scenePath = join(directory, 'pushed-scene.json');
  writeFileSync(scenePath, JSON.stringify(pushed));
  const forwardPath = join(directory, 'virtual.evemu');
  const replay = spawnSync(touchctl(), ['replay', '--scene', scenePath, recording, '--forward', forwardPath], { encoding: 'utf8' });
  assert.equal(replay.status, 0, `${touchctl()}: ${replay.error ?? replay.stderr}`);
  const virtual = readFileSync(forwardPath, 'utf8');
  assert.match(virtual, /^N: Kiosk touchscreen$/m);
  const touches = forwardedTouches(virtual, WIDTH, HEIGHT);
  assert.deepEqual(touches.map((touch) => touch.cancelled), [false, true, true, true, true, true, true]);
  const near = (a, b) => Math.abs(a[0] - b[0]) <= 1 && Math.abs(a[1] - b[1]) <= 1;
  assert.ok(near([touches[0].x, touches[0].y], panel), `the panel's tap at ${touches[0].x},${touches[0].y}`);
  assert.ok(near([touches[1].x, touches[1].y], PLACES.buy), `buy's tap at ${touches[1].x},${touches[1].y}`);
  touches.slice(2).forEach((touch, i) => assert.ok(near([touch.x, touch.y], PLACES.admin[i]), `admin finger ${i} at ${touch.x},${touch.y}`));
  assert.deepEqual(page.errors, []);
});

test('PageScene: forward and grab are refused together; the window options are not windowKeys', { skip: skipReason(), timeout: 60_000 }, async (t) => {
  const server = await serve();
  t.after(() => server.close());
  const browser = await launch(findChromium(), { width: WIDTH, height: HEIGHT });
  t.after(() => browser.close());
  const { page } = browser;
  await page.send('Page.navigate', { url: `http://127.0.0.1:${server.address().port}/examples/web-kiosk/?touchd=${encodeURIComponent('ws://127.0.0.1:9/')}` });
  await page.waitFor('window.kiosk && document.readyState === "complete"', { what: 'the page to load' });
  const attempt = (options) => page.evaluate(`(() => { try { new kiosk.page.constructor(kiosk.client, ${options}); return 'made'; } catch (e) { return e.message; } })()`);
  assert.match(await attempt('{ forward: true, grab: true }'), /^PageScene: 'forward' grabs the window's touchscreens itself/);
  assert.equal(await attempt("{ windowKeys: { forward: {}, rotation: 90 } }"), "PageScene: 'forward' in windowKeys: PageScene sets them from its options (window, size, devices, grab, forward) and the page (views)");
  assert.equal(await attempt("{ windowKeys: { grab: true, size: {width: 1, height: 1} } }"), "PageScene: 'grab', 'size' in windowKeys: PageScene sets them from its options (window, size, devices, grab, forward) and the page (views)");
  const built = (options) => page.evaluate(`new kiosk.page.constructor(kiosk.client, { root: kiosk.page.root, ${options} }).build().windows[0]`);
  const keys = ({ id, devices, grab, forward, rotation }) => ({ id, devices, grab, forward, rotation });
  assert.deepEqual(keys(await built('forward: true')), { id: 'main', devices: ['*'], grab: undefined, forward: {}, rotation: undefined });
  assert.deepEqual(keys(await built("forward: 'Kiosk', windowKeys: { rotation: 90 }")), { id: 'main', devices: ['*'], grab: undefined, forward: { name: 'Kiosk' }, rotation: 90 });
  assert.deepEqual(keys(await built("forward: { name: 'K' }, devices: ['ILITEK*']")), { id: 'main', devices: ['ILITEK*'], grab: undefined, forward: { name: 'K' }, rotation: undefined });
  assert.deepEqual(keys(await built('grab: true, forward: false')), { id: 'main', devices: ['*'], grab: true, forward: undefined, rotation: undefined });
});
