// Writes web-kiosk.evemu: a synthetic touchscreen ("touchd web-kiosk touchscreen", the name the
// page's scene takes with `devices: ["touchd web-kiosk*"]`) whose axes cover the page's 1280x800
// viewport, with the gestures of the example: a tap on each button, swipes on the carousel (left,
// left, right), a two-finger pinch on the photo and the hidden admin gesture (five fingers held
// for 2.5 s). Coordinates are the page's CSS pixels (kiosk.css).
//
//   node examples/web-kiosk/make-recording.mjs [OUTPUT]     (default: beside this script)

import { fileURLToPath } from 'node:url';

import { FingerScript } from '../../clients/js/test/evemu.mjs';

export const WIDTH = 1280;
export const HEIGHT = 800;
export const DEVICE = 'touchd web-kiosk touchscreen';

/** Where the gestures land (the centres of the page's elements). */
export const PLACES = {
  buy: [170, 145],
  map: [450, 145],
  help: [730, 145],
  carousel: [460, 360],
  photo: [460, 645],
  // Five fingers of one hand on the header, where no button is: they land on the root view.
  admin: [
    [430, 52],
    [490, 30],
    [550, 24],
    [610, 30],
    [665, 56],
  ],
};

/** The script of the recording: it starts at 10 s (recording time). */
export function kioskScript() {
  const script = new FingerScript({ width: WIDTH, height: HEIGHT, start: 10, name: DEVICE });
  for (const place of [PLACES.buy, PLACES.map, PLACES.help]) {
    script.tap(place);
    script.wait(0.6);
  }
  const [cx, cy] = PLACES.carousel;
  script.drag([cx + 200, cy], [cx - 200, cy], 0.2); // left: the next slide
  script.wait(0.7);
  script.drag([cx + 200, cy], [cx - 200, cy], 0.2); // and the one after
  script.wait(0.7);
  script.drag([cx - 200, cy], [cx + 200, cy], 0.2); // right: back one
  script.wait(0.7);
  const [px, py] = PLACES.photo;
  script.drags(
    [
      [px - 60, py],
      [px + 60, py],
    ],
    [
      [px - 180, py],
      [px + 180, py],
    ],
    0.5,
  ); // fingers 120 pt apart, then 360: a scale of about 3
  script.wait(0.7);
  script.hold(PLACES.admin, 2.5);
  script.wait(0.3);
  return script;
}

/** The actions the page must receive, in order: [action, view, gesture, state, extra] (the pinch's
 * changed messages, one per frame, are counted apart: at least `PINCH_CHANGES`). */
export const EXPECTED = [
  ['buy-ticket', 'buy', 'tap', 'ended'],
  ['show-map', 'map', 'tap', 'ended'],
  ['call-help', 'help', 'tap', 'ended'],
  ['next-slide', 'carousel', 'swipe', 'ended', 'left'],
  ['next-slide', 'carousel', 'swipe', 'ended', 'left'],
  ['previous-slide', 'carousel', 'swipe', 'ended', 'right'],
  ['zoom', 'photo', 'pinch', 'began'],
  ['zoom', 'photo', 'pinch', 'changed'],
  ['zoom', 'photo', 'pinch', 'ended'],
  ['open-admin', 'kiosk', 'longPress', 'began'],
  ['open-admin', 'kiosk', 'longPress', 'ended'],
];
export const PINCH_CHANGES = 30;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const output = process.argv[2] ?? fileURLToPath(new URL('web-kiosk.evemu', import.meta.url));
  kioskScript().write(output);
  console.log(`wrote ${output}`);
}
