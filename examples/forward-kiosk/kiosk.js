// A forwarding web kiosk (docs/integration.md, "A browser kiosk"): native controls beside touchd
// views. PageScene pushes the page's scene, a window that forwards to the compositor every touch
// touchd does not claim (?forward=NAME, default "Kiosk touchscreen"), so the browser keeps its
// button and its scrolling list while touchd's tap view, admin hold and edge swipe take theirs.
// Everything the page gets (its load, the connection and every scene push, touchd's actions, the
// DOM's click, touch and pointercancel events, the list's scrollTop) goes to the console, and with
// ?report to POST /report on the page's server: the VM check web-kiosk-kwin reads it there
// (scripts/vm/web-kiosk.sh).
import { PageScene, TouchdClient } from '../../clients/js/touchd.js';

const params = new URLSearchParams(location.search);
const url = params.get('touchd') ?? 'ws://127.0.0.1:8765/';
const forward = params.get('forward') || 'Kiosk touchscreen';
const reporting = params.has('report');
const $ = (id) => document.getElementById(id);

// Reports go out in order, one POST at a time, batched while one is in flight.
let queue = [];
let sending = false;
let seq = 0;
function report(type, fields = {}) {
  const entry = { type, seq: ++seq, ms: Date.now(), ...fields };
  console.log(JSON.stringify(entry));
  if (!reporting) return;
  queue.push(entry);
  flush();
}
async function flush() {
  if (sending || !queue.length) return;
  sending = true;
  const batch = queue;
  queue = [];
  try {
    await fetch('/report', { method: 'POST', body: JSON.stringify(batch), keepalive: true });
  } catch (error) {
    queue = batch.concat(queue); // the server is local: try again
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  sending = false;
  flush();
}
window.addEventListener('error', (event) => report('page-error', { message: String(event.message) }));
window.addEventListener('unhandledrejection', (event) => report('page-error', { message: String(event.reason) }));

const list = $('list');
for (let i = 1; i <= 60; i++) {
  const item = document.createElement('div');
  item.textContent = `Item ${i}`;
  list.append(item);
}

const idOf = (target) => target?.id || target?.parentElement?.id || target?.nodeName || null;
const touchList = (touches) => [...touches].map((t) => [t.identifier, Math.round(t.clientX), Math.round(t.clientY)]);
for (const type of ['touchstart', 'touchend', 'touchcancel']) {
  document.addEventListener(type, (event) => report(type, {
    id: idOf(event.target), changed: touchList(event.changedTouches), touches: event.touches.length,
  }), { capture: true, passive: true });
}
for (const type of ['click', 'pointercancel']) {
  document.addEventListener(type, (event) => report(type, {
    id: idOf(event.target), pointerType: event.pointerType ?? null, x: Math.round(event.clientX), y: Math.round(event.clientY),
  }), { capture: true });
}
// The list's position once it comes to rest (scrollend), and at each touch end.
list.addEventListener('scrollend', () => report('scroll', { id: 'list', scrollTop: Math.round(list.scrollTop) }));
document.addEventListener('touchend', () => report('scrollTop', { id: 'list', scrollTop: Math.round(list.scrollTop) }), { passive: true });

const client = new TouchdClient(url, { backoff: { maximum: 0.5 } });
const page = new PageScene(client, { root: $('kiosk'), window: 'main', devices: ['*'], forward });
$('kiosk').addEventListener('touchd', (event) => {
  const m = event.detail;
  if (m.type === 'action') report('action', { action: m.action, state: m.state ?? null, view: m.view, gesture: m.gesture, touches: m.numberOfTouches });
});
$('kiosk').addEventListener('touchd-scene', (event) => {
  const { scene, reply, updates } = event.detail;
  const w = scene.windows[0];
  report('scene', { whole: updates === null, updates: updates?.length ?? 0, views: reply.views, recognizers: reply.recognizers,
    width: w.size.width, height: w.size.height, forward: w.forward?.name ?? null });
  $('status').textContent = `scene pushed (${w.size.width}×${w.size.height})`;
});
$('kiosk').addEventListener('touchd-scene-error', (event) => report('scene-error', { message: event.detail.error.message }));
client.onMessage((m) => {
  if (m.type === 'reconnected') report('reconnected', { restarted: m.restarted, instance: m.instance, previous: m.previousInstance });
  else if (m.type === 'shutdown') report('shutdown');
});

report('load-start', { width: innerWidth, height: innerHeight, dpr: devicePixelRatio, userAgent: navigator.userAgent,
  touchPoints: navigator.maxTouchPoints, sinceNavigation: Math.round(performance.now()) });
window.addEventListener('load', () => report('load', { width: innerWidth, height: innerHeight, sinceNavigation: Math.round(performance.now()) }));
window.addEventListener('resize', () => report('resize', { width: innerWidth, height: innerHeight }));
client.connect().then(
  (hello) => { report('connected', { instance: hello.instance }); $('status').textContent = 'touchd connected'; },
  (error) => report('connect-error', { message: error.message }),
);
page.start();
