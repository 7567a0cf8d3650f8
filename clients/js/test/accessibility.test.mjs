// A view's `accessibility:` from its element's ARIA (accessibilityOf in page-scene.js), on the fake
// DOM of test/fake-dom.mjs: the exact keys for each rule, none when there is nothing to say, and a
// page whose own status text changes after each push pushing nothing more.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { accessibilityOf } from '../page-scene.js';
import { PageScene, VIEW_KEYS, canonicalJSON, sceneUpdates } from '../touchd.js';
import { fakeDocument } from './fake-dom.mjs';

/** The accessibility of each element made by `make(h)`, attached to a fake document's body (the
 * elements aria-labelledby and aria-describedby name are looked up there). */
function accessibility(make) {
  const { document, h } = fakeDocument();
  const elements = make(h);
  document.body.append(...Object.values(elements));
  return Object.fromEntries(Object.entries(elements).map(([name, element]) => [name, accessibilityOf(element)]));
}

test('accessibility: the label is the accessible name; text only for roles named from content', () => {
  const got = accessibility((h) => ({
    text: h('button', {}, '\n    Buy a   ticket\n  '),
    ariaLabel: h('button', { 'aria-label': 'Buy one adult ticket' }, 'Buy'),
    labelledBy: h('button', { 'aria-labelledby': 'l1 l2', 'aria-label': 'not this' }, 'nor this'),
    l1: h('span', { id: 'l1' }, ' Museum '),
    l2: h('span', { id: 'l2', 'aria-label': 'map' }, 'ignored'),
    inner: h('button', {}, h('span', { 'aria-hidden': 'true' }, '★'), ' Favourite ', h('img', { alt: 'star' }), h('span', { hidden: '' }, 'gone')),
    innerLabel: h('a', { href: '#next' }, 'Go to ', h('span', { 'aria-label': 'the next page' }, '→')),
    heading: h('h2', {}, 'Opening hours'),
    container: h('main', {}, h('p', {}, 'touchd connected'), h('button', {}, 'Buy')),
    region: h('section', { 'aria-label': 'Exhibitions' }, h('p', {}, 'Dinosaurs')),
    plain: h('div', {}, 'Some text'),
    titled: h('div', { title: 'Staff only' }),
    empty: h('button', { 'aria-label': '   ' }),
  }));
  assert.deepEqual(got, {
    text: { label: 'Buy a ticket', traits: ['button'] },
    ariaLabel: { label: 'Buy one adult ticket', traits: ['button'] },
    labelledBy: { label: 'Museum map', traits: ['button'] },
    l1: null,
    l2: { label: 'map' },
    inner: { label: 'Favourite star', traits: ['button'] },
    innerLabel: { label: 'Go to the next page', traits: ['link'] },
    heading: { label: 'Opening hours', traits: ['header'] },
    // main, section, div: no name from their content (WAI-ARIA 1.2), so a page's live text
    // (a status line, a log) inside one labels nothing.
    container: null,
    region: { label: 'Exhibitions' },
    plain: null,
    titled: { label: 'Staff only' },
    empty: { traits: ['button'] },
  });
});

test('accessibility: roles, explicit and implicit, and their UIKit traits', () => {
  const got = accessibility((h) => ({
    button: h('button', {}, 'OK'),
    inputButton: h('input', { type: 'submit', value: 'Pay' }),
    link: h('a', { href: '/map' }, 'Map'),
    anchor: h('a', {}, 'Map'), // no href: no link, no name from content
    h1: h('h1', {}, 'City Museum'),
    h6: h('h6', {}, 'Small print'),
    img: h('img', { alt: 'The museum at night', src: 'night.jpg' }),
    decorative: h('img', { alt: '', src: 'swirl.svg' }),
    range: h('input', { type: 'range', 'aria-label': 'Volume', 'aria-valuenow': '40' }),
    slider: h('div', { role: 'slider', 'aria-label': 'Tickets', 'aria-valuenow': '3', 'aria-valuetext': '3 tickets' }),
    number: h('input', { type: 'number', 'aria-label': 'Adults', 'aria-valuenow': '2' }),
    search: h('input', { type: 'search', 'aria-label': 'Find an exhibit' }),
    combobox: h('input', { type: 'search', list: 'exhibits', 'aria-label': 'Find an exhibit' }),
    roleButton: h('div', { role: 'button' }, 'Go'),
    roleLink: h('button', { role: 'link' }, 'Read more'),
    fallback: h('span', { role: 'switch button', 'aria-checked': 'true' }, 'Sound'),
    tab: h('div', { role: 'tab', 'aria-selected': 'true' }, 'Today'),
    radio: h('div', { role: 'radio', 'aria-checked': 'false' }, 'Adult'),
    checkbox: h('input', { type: 'checkbox', 'aria-label': 'Newsletter', 'aria-checked': 'true' }),
    image: h('div', { role: 'img', 'aria-label': 'A map of the halls' }),
    heading: h('div', { role: 'heading', 'aria-level': '2' }, 'Tickets'),
  }));
  assert.deepEqual(got, {
    button: { label: 'OK', traits: ['button'] },
    inputButton: { label: 'Pay', traits: ['button'] },
    link: { label: 'Map', traits: ['link'] },
    anchor: null,
    h1: { label: 'City Museum', traits: ['header'] },
    h6: { label: 'Small print', traits: ['header'] },
    img: { label: 'The museum at night', traits: ['image'] },
    decorative: null,
    range: { label: 'Volume', value: '40', traits: ['adjustable'] },
    slider: { label: 'Tickets', value: '3 tickets', traits: ['adjustable'] },
    number: { label: 'Adults', value: '2', traits: ['adjustable'] },
    search: { label: 'Find an exhibit', traits: ['searchField'] },
    combobox: { label: 'Find an exhibit' },
    roleButton: { label: 'Go', traits: ['button'] },
    roleLink: { label: 'Read more', traits: ['link'] },
    fallback: { label: 'Sound', traits: ['button', 'selected'] },
    tab: { label: 'Today', traits: ['button', 'selected'] },
    radio: { label: 'Adult', traits: ['button'] },
    checkbox: { label: 'Newsletter', traits: ['button', 'selected'] },
    image: { label: 'A map of the halls', traits: ['image'] },
    heading: { label: 'Tickets', traits: ['header'] },
  });
});

test('accessibility: states, hints, hidden and modal', () => {
  const got = accessibility((h) => ({
    disabled: h('button', { disabled: '' }, 'Pay'),
    ariaDisabled: h('div', { role: 'button', 'aria-disabled': 'true' }, 'Pay'),
    notDisabled: h('button', { 'aria-disabled': 'false' }, 'Pay'),
    pressed: h('button', { 'aria-pressed': 'true' }, 'Large text'),
    unpressed: h('button', { 'aria-pressed': 'false' }, 'Large text'),
    both: h('button', { 'aria-pressed': 'true', disabled: '' }, 'Large text'),
    described: h('button', { 'aria-describedby': 'buy-hint missing', title: 'not this' }, 'Buy'),
    hint: h('p', { id: 'buy-hint', hidden: '' }, 'Buys one adult ticket.'),
    titled: h('button', { title: 'Prints a receipt' }, 'Print'),
    hidden: h('button', { 'aria-hidden': 'true', 'aria-label': 'Close' }, '×'),
    notHidden: h('button', { 'aria-hidden': 'false' }, 'Close'),
    dialog: h('div', { role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Admin mode' }, h('p', {}, 'Opened')),
  }));
  assert.deepEqual(got, {
    disabled: { label: 'Pay', traits: ['button', 'notEnabled'] },
    ariaDisabled: { label: 'Pay', traits: ['button', 'notEnabled'] },
    notDisabled: { label: 'Pay', traits: ['button'] },
    pressed: { label: 'Large text', traits: ['button', 'selected'] },
    unpressed: { label: 'Large text', traits: ['button'] },
    both: { label: 'Large text', traits: ['button', 'selected', 'notEnabled'] },
    described: { label: 'Buy', hint: 'Buys one adult ticket.', traits: ['button'] },
    hint: null,
    titled: { label: 'Print', hint: 'Prints a receipt', traits: ['button'] },
    hidden: { hidden: true }, // nothing else: the element is none
    notHidden: { label: 'Close', traits: ['button'] },
    dialog: { label: 'Admin mode', modal: true },
  });
});

test('accessibility: aria-hidden on an ancestor hides the view, up to the view it is in', () => {
  const { document, h } = fakeDocument();
  const button = h('button', {}, 'Buy');
  const wrapper = h('div', { 'aria-hidden': 'true' }, button);
  const outer = h('section', { 'data-touchd-view': 'outer' }, wrapper);
  document.body.append(outer);
  assert.deepEqual(accessibilityOf(button), { hidden: true });
  assert.deepEqual(accessibilityOf(button, outer), { hidden: true }); // the wrapper is no view
  assert.deepEqual(accessibilityOf(button, wrapper), { label: 'Buy', traits: ['button'] }); // the view's own hidden covers it
  // touchd.js's way to it, as PageScene's.
  assert.deepEqual(PageScene.accessibilityOf(button, wrapper), accessibilityOf(button, wrapper));
});

/** A kiosk-like page on the fake DOM: a root view with a long press (main: no name from content),
 * a status line that the page rewrites after every push (as examples/web-kiosk does), and views
 * with labels of their own. */
function kioskPage() {
  const { document, h } = fakeDocument();
  const rect = (left, top, width, height) => ({ left, top, width, height });
  const elements = {
    kiosk: h('main', { id: 'kiosk', 'data-touchd-type': 'longPress', 'data-touchd-action': 'open-admin', rect: rect(0, 0, 1280, 800) }),
    status: h('p', { id: 'status' }, 'no scene pushed yet'),
    buy: h('button', { id: 'buy', 'data-touchd-type': 'tap', 'data-touchd-action': 'buy-ticket', rect: rect(40, 90, 260, 110) }, '\n    Buy a ticket'),
    help: h('button', { id: 'help', 'data-touchd-type': 'tap', 'aria-describedby': 'help-hint', rect: rect(600, 90, 260, 110) }, 'Call for help'),
    hint: h('p', { id: 'help-hint', hidden: '' }, 'A member of staff comes to this kiosk.'),
    photo: h('figure', {
      id: 'photo', 'data-touchd-type': 'pinch', 'aria-label': 'Photo of the museum',
      'data-touchd-accessibility': '{"traits":["image"],"activationPoint":{"x":420,"y":125}}', rect: rect(40, 520, 840, 250),
    }, h('svg', { 'aria-hidden': 'true' }), h('figcaption', {}, 'pinch to zoom · ×1.00')),
    pad: h('div', { id: 'pad', 'data-touchd-view': 'pad', 'data-touchd-touches': 'true', rect: rect(900, 0, 100, 100) }, 'scribble here'),
  };
  const { kiosk, status, buy, help, hint, photo, pad } = elements;
  kiosk.append(status, buy, help, hint, photo, pad);
  document.body.append(kiosk);
  return { document, elements };
}

/** A client that takes every command and keeps it. */
function fakeClient() {
  let seq = 0;
  return {
    connected: true,
    sent: [],
    request(cmd, fields) {
      this.sent.push({ cmd, ...fields });
      seq += 1;
      return Promise.resolve(cmd === 'scene' ? { id: seq, views: 5, recognizers: 4 } : { id: seq, op: fields.op });
    },
    onMessage() {
      return () => {};
    },
  };
}

test('PageScene builds each view\'s accessibility from the page; data-touchd-accessibility adds to it', () => {
  assert.ok(VIEW_KEYS.includes('accessibility'));
  const { elements } = kioskPage();
  const page = new PageScene(fakeClient(), { root: elements.kiosk });
  const [kiosk] = page.build().windows[0].views;
  assert.equal('accessibility' in kiosk, false); // main: no label of its text, nothing else
  const byId = Object.fromEntries(kiosk.views.map((view) => [view.id, view]));
  assert.deepEqual(byId.buy, {
    id: 'buy',
    frame: { x: 40, y: 90, width: 260, height: 110 },
    recognizers: [{ id: 'buy-tap', type: 'tap', action: 'buy-ticket' }],
    accessibility: { label: 'Buy a ticket', traits: ['button'] },
  });
  assert.deepEqual(byId.help.accessibility, { label: 'Call for help', hint: 'A member of staff comes to this kiosk.', traits: ['button'] });
  assert.deepEqual(byId.photo.accessibility, { label: 'Photo of the museum', traits: ['image'], activationPoint: { x: 420, y: 125 } });
  assert.equal('accessibility' in byId.pad, false); // a div: its text names nothing
  // One the page hides: hidden, and nothing else.
  elements.help.setAttribute('aria-hidden', 'true');
  assert.deepEqual(page.build().windows[0].views[0].views[1].accessibility, { hidden: true });
});

test('PageScene pushes nothing more when the page rewrites its own text after a push (no second push)', async (t) => {
  const { document, elements } = kioskPage();
  const client = fakeClient();
  const page = new PageScene(client, { root: elements.kiosk });
  t.after(() => page.stop());
  // The page's own feedback, as examples/web-kiosk's: the status line says what was pushed.
  let pushed = 0;
  elements.kiosk.addEventListener('touchd-scene', (event) => {
    pushed += 1;
    elements.status.textContent = `scene pushed: ${event.detail.reply.views} views (${pushed})`;
  });
  await page.start();
  assert.deepEqual(client.sent.map((command) => command.cmd), ['scene']);
  // The observer's refreshes (an animation frame, else 50 ms), and what they push.
  const until = async (condition, what) => {
    for (const deadline = Date.now() + 5000; !condition(); ) {
      assert.ok(Date.now() < deadline, `no ${what} within 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 150));
  let builds = 0;
  const build = page.build.bind(page);
  page.build = () => {
    builds += 1;
    return build();
  };
  await until(() => builds > 0, 'build after the status line changed');
  await settle();
  assert.ok(document.records.some((record) => record.target === elements.status), 'the status line changed');
  assert.equal(elements.status.textContent, 'scene pushed: 5 views (1)');
  // The status change was seen and the scene built again, but it is the same scene: nothing sent.
  assert.equal(builds, 1);
  await page.refresh();
  assert.deepEqual(client.sent.map((command) => command.cmd), ['scene']);
  assert.equal(page.pushes, 1);

  // Text inside a view named by its content is a real change: its view alone is replaced.
  elements.buy.textContent = 'Buy two tickets';
  await until(() => client.sent.length > 1, 'push after the text changed');
  assert.deepEqual(client.sent.slice(1), [{ cmd: 'update', op: 'replace', view: page.scene.windows[0].views[0].views[0] }]);
  assert.deepEqual(page.scene.windows[0].views[0].views[0].accessibility, { label: 'Buy two tickets', traits: ['button'] });
  // An ARIA attribute is watched too.
  elements.buy.setAttribute('aria-disabled', 'true');
  await until(() => client.sent.length > 2, 'push after aria-disabled');
  assert.deepEqual(client.sent[2].view.accessibility, { label: 'Buy two tickets', traits: ['button', 'notEnabled'] });
  // Text in a view that is not named by it (the pad's) changes nothing.
  elements.pad.textContent = 'scribbled';
  await settle();
  await page.refresh();
  assert.equal(client.sent.length, 3);
  assert.equal(page.pushes, 3);
});

test('accessibility objects compare by value in the diff, whatever their key order', () => {
  const view = (accessibility) => ({ id: 'buy', frame: { x: 0, y: 0, width: 9, height: 9 }, accessibility });
  const scene = (accessibility) => ({ version: 1, windows: [{ id: 'main', size: { width: 9, height: 9 }, views: [view(accessibility)] }] });
  const a = scene({ label: 'Buy', traits: ['button'], hint: 'One ticket' });
  const b = scene({ hint: 'One ticket', traits: ['button'], label: 'Buy' });
  assert.equal(canonicalJSON(a), canonicalJSON(b));
  assert.deepEqual(sceneUpdates(a, b), []);
  const c = scene({ label: 'Buy', traits: ['button', 'notEnabled'], hint: 'One ticket' });
  assert.deepEqual(sceneUpdates(a, c), [{ op: 'replace', view: c.windows[0].views[0] }]);
});
