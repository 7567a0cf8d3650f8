// The web kiosk: its scene is built from the page's data-touchd-* elements and pushed to touchd
// (PageScene); each action arrives as a DOM event on its element.
//
// Query parameters: `touchd` (the WebSocket URL, default ws://127.0.0.1:8765/), `devices` (the
// touchscreens the window takes: a JSON list or one glob; default the example recording's) and
// `forward` (present: the window forwards the touches no recognizer claims to a virtual
// touchscreen, named by its value when it has one; docs/forward.md).

import { PageScene, TouchdClient } from '../../clients/js/touchd.js';

const params = new URLSearchParams(location.search);
const url = params.get('touchd') ?? 'ws://127.0.0.1:8765/';
let devices = ['touchd web-kiosk*'];
if (params.has('devices')) {
  try {
    devices = JSON.parse(params.get('devices'));
  } catch {
    devices = [params.get('devices')];
  }
}

const forward = params.has('forward') ? params.get('forward') || true : undefined;

const $ = (id) => document.getElementById(id);
const root = $('kiosk');
// A kiosk's daemon is local: come back quickly after it restarts.
const client = new TouchdClient(url, { backoff: { maximum: 0.5 } });
const page = new PageScene(client, { root, window: 'main', devices, forward });

// What the page saw, for people (on screen) and for the test (window.kiosk).
const state = { url, actions: [], carousel: 0, zoom: 1, admin: false, connected: false, sceneErrors: [] };
window.kiosk = { client, page, state };

let last = null; // the last line of the log, and how many changes it folds
function log(m) {
  const extra = m.direction ? ` ${m.direction}` : m.scale !== undefined ? ` ×${m.scale.toFixed(2)}` : '';
  const list = $('log');
  let item;
  if (m.state === 'changed' && last?.action === m.action && last.state === 'changed') {
    item = last.item; // one line for a gesture's changes
    last.count += 1;
  } else {
    item = document.createElement('li');
    list.prepend(item);
    last = { item, action: m.action, state: m.state, count: 1 };
    while (list.children.length > 100) list.lastChild.remove();
  }
  const count = last.count > 1 ? ` (${last.count})` : '';
  item.innerHTML = `<b>${m.action}</b> ${m.gesture} ${m.state ?? ''}${extra}${count} <small>on ${m.view} · #${m.seq}</small>`;
}

// Every action, whatever its view: the `touchd` event bubbles up from the view's element.
root.addEventListener('touchd', (event) => {
  const m = event.detail;
  if (m.type !== 'action') return;
  state.actions.push(m);
  log(m);
});

// The actions, each on its element.
for (const [id, action] of [['buy', 'buy-ticket'], ['map', 'show-map'], ['help', 'call-help']]) {
  const button = $(id);
  button.addEventListener(action, () => {
    button.classList.add('flash');
    setTimeout(() => button.classList.remove('flash'), 150);
  });
}

const slides = $('track').children.length;
function showSlide(index) {
  state.carousel = Math.max(0, Math.min(slides - 1, index));
  $('track').style.transform = `translateX(${-840 * state.carousel}px)`;
  [...$('dots').children].forEach((dot, i) => dot.classList.toggle('on', i === state.carousel));
}
$('carousel').addEventListener('next-slide', () => showSlide(state.carousel + 1));
$('carousel').addEventListener('previous-slide', () => showSlide(state.carousel - 1));

let zoomAtStart = 1;
$('photo').addEventListener('zoom', (event) => {
  const { state: phase, scale } = event.detail;
  if (phase === 'began') zoomAtStart = state.zoom;
  if (phase === 'cancelled') state.zoom = zoomAtStart;
  else state.zoom = Math.max(1, Math.min(4, zoomAtStart * scale));
  $('picture').style.transform = `scale(${state.zoom})`;
  $('zoom-label').textContent = `pinch to zoom · ×${state.zoom.toFixed(2)}`;
});

root.addEventListener('open-admin', (event) => {
  if (event.detail.state !== 'began') return;
  state.admin = true;
  $('admin').hidden = false;
});

// The connection and the scene, on screen.
function connection(text, online) {
  state.connected = online;
  $('connection').textContent = text;
  $('connection').classList.toggle('offline', !online);
}
client.onMessage((message) => {
  if (message.type === 'reconnected') connection('touchd connected', true);
  else if (message.type === 'shutdown') connection('touchd stopped: reconnecting…', false);
});
client.connect().then(
  () => connection('touchd connected', true),
  (error) => connection(`touchd: ${error.message}`, false),
);
root.addEventListener('touchd-scene', (event) => {
  // The first push is the whole scene, later ones updates; both replies count the scene's views.
  const { scene, reply } = event.detail;
  const { width, height } = scene.windows[0].size;
  $('scene-status').className = '';
  $('scene-status').textContent = `scene pushed: ${reply.views} views, ${reply.recognizers} recognizers, ${width}×${height}`;
});
root.addEventListener('touchd-scene-error', (event) => {
  state.sceneErrors.push(event.detail.error.message);
  $('scene-status').className = 'error';
  $('scene-status').textContent = event.detail.error.message;
});

page.start();
