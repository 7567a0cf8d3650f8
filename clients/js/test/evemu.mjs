// Synthesized evemu recordings, in the format of touchd's own test kit: a JavaScript port of
// clients/python/tests/evemu.py (itself a port of Sources/TouchdTestKit/FingerScript.swift).
// A synthetic multitouch touchscreen (protocol B, 0...4095 on both axes, 10 slots,
// INPUT_PROP_DIRECT) and scripted fingers placed in window points, written as evemu text.

import { writeFileSync } from 'node:fs';

export const AXIS_MAXIMUM = 4095;
export const SLOTS = 10;
export const DEFAULT_NAME = 'touchd synthetic touchscreen';

const EV_SYN = 0x00;
const EV_KEY = 0x01;
const EV_ABS = 0x03;
const SYN_REPORT = 0x00;
const BTN_TOUCH = 0x14a;
const ABS_X = 0x00;
const ABS_Y = 0x01;
const ABS_MT_SLOT = 0x2f;
const ABS_MT_POSITION_X = 0x35;
const ABS_MT_POSITION_Y = 0x36;
const ABS_MT_TRACKING_ID = 0x39;

const CODE_NAMES = new Map([
  [`${EV_SYN}:${SYN_REPORT}`, 'SYN_REPORT'],
  [`${EV_KEY}:${BTN_TOUCH}`, 'BTN_TOUCH'],
  [`${EV_ABS}:${ABS_X}`, 'ABS_X'],
  [`${EV_ABS}:${ABS_Y}`, 'ABS_Y'],
  [`${EV_ABS}:${ABS_MT_SLOT}`, 'ABS_MT_SLOT'],
  [`${EV_ABS}:${ABS_MT_POSITION_X}`, 'ABS_MT_POSITION_X'],
  [`${EV_ABS}:${ABS_MT_POSITION_Y}`, 'ABS_MT_POSITION_Y'],
  [`${EV_ABS}:${ABS_MT_TRACKING_ID}`, 'ABS_MT_TRACKING_ID'],
]);
const TYPE_NAMES = new Map([
  [EV_SYN, 'EV_SYN'],
  [EV_KEY, 'EV_KEY'],
  [EV_ABS, 'EV_ABS'],
]);

const pad = (value, width) => String(value).padStart(width, ' ');

function axisBlock(code, name, maximum, resolution) {
  return (
    `#     Event code ${code} (${name})\n` +
    `#       Value   ${pad(0, 6)}\n` +
    `#       Min     ${pad(0, 6)}\n` +
    `#       Max     ${pad(maximum, 6)}\n` +
    `#       Fuzz    ${pad(0, 6)}\n` +
    `#       Flat    ${pad(0, 6)}\n` +
    `#       Resolution ${pad(resolution, 3)}\n`
  );
}

/** The evemu header of the synthetic touchscreen named `name`. */
export function header(name = DEFAULT_NAME) {
  return (
    '# EVEMU 1.3\n' +
    `# Input device name: "${name}"\n` +
    '# Input device ID: bus 0x03 vendor 0x1d6b product 0x7a11 version 0x01\n' +
    '# Size in mm: 255x255\n' +
    '# Supported events:\n' +
    '#   Event type 0 (EV_SYN)\n' +
    '#     Event code 0 (SYN_REPORT)\n' +
    '#   Event type 1 (EV_KEY)\n' +
    '#     Event code 330 (BTN_TOUCH)\n' +
    '#   Event type 3 (EV_ABS)\n' +
    axisBlock(0, 'ABS_X', AXIS_MAXIMUM, 16) +
    axisBlock(1, 'ABS_Y', AXIS_MAXIMUM, 16) +
    axisBlock(47, 'ABS_MT_SLOT', SLOTS - 1, 0) +
    axisBlock(53, 'ABS_MT_POSITION_X', AXIS_MAXIMUM, 16) +
    axisBlock(54, 'ABS_MT_POSITION_Y', AXIS_MAXIMUM, 16) +
    axisBlock(57, 'ABS_MT_TRACKING_ID', 65535, 0) +
    '# Properties:\n' +
    '#   Property  type 1 (INPUT_PROP_DIRECT)\n' +
    `N: ${name}\n` +
    'I: 0003 1d6b 7a11 0001\n' +
    'P: 02 00 00 00 00 00 00 00\n' +
    'B: 00 01 00 00 00 00 00 00 00\n' +
    'B: 01 00 00 00 00 00 00 00 00\n'.repeat(5) +
    'B: 01 00 04 00 00 00 00 00 00\n' +
    'B: 01 00 00 00 00 00 00 00 00\n'.repeat(6) +
    'B: 02 00 00 00 00 00 00 00 00\n' +
    'B: 03 03 00 00 00 00 80 60 02\n' +
    'B: 04 00 00 00 00 00 00 00 00\n' +
    'B: 05 00 00 00 00 00 00 00 00\n' +
    'B: 11 00 00 00 00 00 00 00 00\n' +
    'B: 12 00 00 00 00 00 00 00 00\n' +
    'B: 14 00 00 00 00 00 00 00 00\n' +
    'B: 15 00 00 00 00 00 00 00 00\n' +
    'B: 15 00 00 00 00 00 00 00 00\n' +
    'A: 00 0 4095 0 0 16\n' +
    'A: 01 0 4095 0 0 16\n' +
    'A: 2f 0 9 0 0 0\n' +
    'A: 35 0 4095 0 0 16\n' +
    'A: 36 0 4095 0 0 16\n' +
    'A: 39 0 65535 0 0 0\n' +
    '################################\n' +
    '#      Waiting for events      #\n' +
    '################################\n'
  );
}

/** Scripted fingers on a window of `width` × `height` points (the axes map onto it), from
 * `start` seconds, sampled at `sampleRate` Hz while they move. */
export class FingerScript {
  constructor({ width = 1920, height = 1080, start = 1, sampleRate = 120, name = DEFAULT_NAME } = {}) {
    Object.assign(this, { width, height, time: start, sampleRate, name });
    this.events = []; // [microseconds, type, code, value]
    this.slots = new Array(SLOTS).fill(null);
    this.nextTrackingId = 1;
    this.lastSlot = null;
  }

  // Primitives

  wait(seconds) {
    this.time += seconds;
  }

  /** Puts fingers down at `points` ([x, y] each) in one frame; returns their slots. */
  down(points) {
    const fingers = [];
    const wasEmpty = this.fingersDown.length === 0;
    for (const point of points) {
      const slot = this.slots.indexOf(null);
      this.slots[slot] = point;
      this.select(slot);
      this.emit(EV_ABS, ABS_MT_TRACKING_ID, this.nextTrackingId++);
      this.emit(EV_ABS, ABS_MT_POSITION_X, this.dx(point[0]));
      this.emit(EV_ABS, ABS_MT_POSITION_Y, this.dy(point[1]));
      fingers.push(slot);
    }
    if (wasEmpty && points.length) this.emit(EV_KEY, BTN_TOUCH, 1);
    this.endFrame();
    return fingers;
  }

  /** Moves `fingers` to `points` in one frame. */
  move(fingers, points) {
    fingers.forEach((finger, i) => {
      const old = this.slots[finger];
      const point = points[i];
      if (old === null) return;
      this.slots[finger] = point;
      const [ox, oy, nx, ny] = [this.dx(old[0]), this.dy(old[1]), this.dx(point[0]), this.dy(point[1])];
      if (ox === nx && oy === ny) return;
      this.select(finger);
      if (nx !== ox) this.emit(EV_ABS, ABS_MT_POSITION_X, nx);
      if (ny !== oy) this.emit(EV_ABS, ABS_MT_POSITION_Y, ny);
    });
    this.endFrame();
  }

  /** Lifts `fingers` in one frame. */
  up(fingers) {
    for (const finger of fingers) {
      if (this.slots[finger] === null) continue;
      this.slots[finger] = null;
      this.select(finger);
      this.emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
    }
    if (this.fingersDown.length === 0) this.emit(EV_KEY, BTN_TOUCH, 0);
    this.endFrame();
  }

  get fingersDown() {
    return this.slots.flatMap((point, i) => (point === null ? [] : [i]));
  }

  // Gestures

  tap(point, duration = 0.05) {
    const fingers = this.down([point]);
    this.time += duration;
    this.up(fingers);
  }

  /** Fingers from `starts` to `ends` (one point each) in a straight line over `duration`. */
  drags(starts, ends, duration) {
    const fingers = this.down(starts);
    const steps = Math.max(1, Math.round(duration * this.sampleRate));
    for (let step = 1; step <= steps; step++) {
      this.time += duration / steps;
      const t = step / steps;
      this.move(
        fingers,
        starts.map((s, i) => [s[0] + (ends[i][0] - s[0]) * t, s[1] + (ends[i][1] - s[1]) * t]),
      );
    }
    this.up(fingers);
  }

  drag(start, end, duration) {
    this.drags([start], [end], duration);
  }

  /** Fingers held still at `points` for `duration`, then lifted. */
  hold(points, duration) {
    const fingers = this.down(points);
    this.time += duration;
    this.up(fingers);
  }

  // Encoding

  dx(x) {
    return FingerScript.units(x / this.width);
  }

  dy(y) {
    return FingerScript.units(y / this.height);
  }

  static units(normalized) {
    // The unit whose cell holds the fraction (AbsInfo.units(atFraction:)): touchd reads a unit at
    // its cell's centre, so the point comes back within half a unit (docs/scene.md).
    const cell = Math.floor(Math.min(Math.max(normalized, 0), 1) * (AXIS_MAXIMUM + 1));
    return Math.min(Math.max(cell, 0), AXIS_MAXIMUM);
  }

  select(slot) {
    if (this.lastSlot !== slot) {
      this.emit(EV_ABS, ABS_MT_SLOT, slot);
      this.lastSlot = slot;
    }
  }

  endFrame() {
    const down = this.fingersDown;
    if (down.length) {
      const p = this.slots[down[0]];
      this.emit(EV_ABS, ABS_X, this.dx(p[0]));
      this.emit(EV_ABS, ABS_Y, this.dy(p[1]));
    }
    this.emit(EV_SYN, SYN_REPORT, 0);
  }

  emit(type, code, value) {
    this.events.push([Math.round(this.time * 1_000_000), type, code, value]);
  }

  evemuText() {
    const lines = [header(this.name)];
    let lastSyncMs = 0;
    for (const [micros, type, code, value] of this.events) {
      const digits = String(Math.abs(value)).padStart(4, '0');
      const valueText = value < 0 ? (digits.length === 4 && digits[0] === '0' ? '-' + digits.slice(1) : '-' + digits) : digits;
      const seconds = Math.floor(micros / 1_000_000);
      const fraction = String(micros % 1_000_000).padStart(6, '0');
      const hex = (n) => n.toString(16).padStart(4, '0');
      let line = `E: ${seconds}.${fraction} ${hex(type)} ${hex(code)} ${valueText}\t`;
      const name = CODE_NAMES.get(`${type}:${code}`) ?? '(null)';
      if (type === EV_SYN) {
        const ms = Math.floor(micros / 1000);
        const dt = ms - lastSyncMs;
        lastSyncMs = ms;
        line += `# ------------ ${name} (${value}) ---------- ${dt >= 0 ? '+' : ''}${dt}ms\n`;
      } else {
        line += `# ${TYPE_NAMES.get(type)} / ${name.padEnd(20)} ${value}\n`;
      }
      lines.push(line);
    }
    return lines.join('');
  }

  write(path) {
    writeFileSync(path, this.evemuText());
    return path;
  }
}
