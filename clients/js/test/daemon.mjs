// The real touchd daemon for the JavaScript client's tests, listening on a Unix socket in a
// temporary directory and on a WebSocket port of loopback (`touchd --websocket 127.0.0.1:PORT`).
//
// The daemon binary is $TOUCHD_BIN, else <repository>/.build/debug/touchd (`swift build`). It is
// copied once per test file, so that a rebuild while the tests run does not pull it from under
// them. Without it (or with a touchd built before its WebSocket endpoint) the tests that need it
// are skipped, saying why.

import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { FingerScript } from './evemu.mjs';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const REPOSITORY = resolve(HERE, '..', '..', '..');

// The test scene, shared with the Swift and Python clients' tests.
export const SCENE = readFileSync(join(REPOSITORY, 'clients', 'test-scene.yaml'), 'utf8');

export const DOOR = [300, 250];
export const LAMP = [1200, 250];
export const PAD = [500, 800];

/** A tap on door, on lamp, then on pad, `gap` seconds apart. Through SCENE it publishes 6
 * messages: door touches began and cancelled (the tap recognizer takes the touch), open-door,
 * toggle-lamp, pad touches began and ended. */
export function tapsScript(gap = 0.5) {
  const script = new FingerScript({ start: 10 });
  script.tap(DOOR);
  script.wait(gap);
  script.tap(LAMP);
  script.wait(gap);
  script.tap(PAD);
  script.wait(gap);
  return script;
}

/** [type, view, phase or action] of the 6 messages of tapsScript, in seq order. */
export const TAPS_MESSAGES = [
  ['touches', 'door', 'began'],
  ['touches', 'door', 'cancelled'],
  ['action', 'door', 'open-door'],
  ['action', 'lamp', 'toggle-lamp'],
  ['touches', 'pad', 'began'],
  ['touches', 'pad', 'ended'],
];

/** [type, view, phase or action] of a pipeline message. */
export function kind(message) {
  return [message.type, message.view, message.type === 'action' ? message.action : message.phase];
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

let found;
/** {binary, reason}: the daemon to test (a stable copy), or why there is none. */
export function findTouchd() {
  if (found) return found;
  const given = process.env.TOUCHD_BIN;
  const path = given || join(REPOSITORY, '.build', 'debug', 'touchd');
  if (!existsSync(path) || !executable(path)) {
    found = {
      binary: null,
      reason: `touchd is not built: set TOUCHD_BIN to the daemon binary, or run \`swift build\` to make ${path}`,
    };
    return found;
  }
  const directory = mkdtempSync(join(tmpdir(), 'touchd-js-bin-'));
  const copy = join(directory, 'touchd');
  let help = null;
  for (let attempt = 0; attempt < 30 && help === null; attempt++) {
    // A binary being rebuilt may be missing or half written for a while.
    try {
      copyFileSync(path, copy);
      const run = spawnSync(copy, ['--help'], { encoding: 'utf8', timeout: 30_000 });
      if (run.status === 0) help = run.stdout + run.stderr;
    } catch {
      // try again
    }
    if (help === null) spawnSync('sleep', ['2']);
  }
  if (help === null) found = { binary: null, reason: `${path} does not run (\`--help\` failed)` };
  else if (!help.includes('--websocket')) {
    found = { binary: null, reason: `${path} has no --websocket option (built before touchd's WebSocket endpoint)` };
  } else found = { binary: copy, reason: null };
  process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
  return found;
}

/** A TCP port of loopback that nobody listens on (now). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** One touchd process. */
export class Daemon {
  constructor({ binary, directory, scene, socket, port, args = [] }) {
    Object.assign(this, { binary, directory, scene, socket, port, args });
    this.process = null;
    this.logPath = join(directory, `touchd-${process.hrtime.bigint()}.log`);
    this.exitCode = undefined;
  }

  get url() {
    return `ws://127.0.0.1:${this.port}/`;
  }

  get log() {
    try {
      return readFileSync(this.logPath, 'utf8');
    } catch {
      return '';
    }
  }

  /** Starts it and waits for its "touchd ready". */
  async start() {
    const argv = ['--scene', this.scene, '--socket', this.socket, '--websocket', `127.0.0.1:${this.port}`, ...this.args];
    const log = openSync(this.logPath, 'w');
    this.process = spawn(this.binary, argv, { stdio: ['ignore', 'ignore', log], cwd: this.directory });
    this.exited = new Promise((resolve) =>
      this.process.on('exit', (code, signal) => {
        this.exitCode = code ?? signal;
        resolve(this.exitCode);
      }),
    );
    const deadline = Date.now() + 20_000;
    while (!this.log.includes('touchd ready')) {
      if (this.exitCode !== undefined || Date.now() > deadline) {
        throw new Error(`touchd did not start (${argv.join(' ')}); log:\n${this.log}`);
      }
      await sleep(0.01);
    }
    return this;
  }

  /** Stops it with `signal`; resolves to its exit code (or the signal's name). */
  async stop(signal = 'SIGTERM', timeout = 10) {
    if (!this.process) return null;
    if (this.exitCode === undefined) this.process.kill(signal);
    const timer = setTimeout(() => this.process.kill('SIGKILL'), timeout * 1000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

/** Starts daemons for one test (all on one port and socket, one at a time), stopped at its end:
 * `const daemons = await daemonFactory(t)`. */
export async function daemonFactory(t) {
  const { binary } = findTouchd();
  const directory = mkdtempSync(join(tmpdir(), 'touchd-js-'));
  const scene = join(directory, 'scene.yaml');
  writeFileSync(scene, SCENE);
  const port = await freePort();
  const daemons = [];
  const factory = {
    directory,
    port,
    url: `ws://127.0.0.1:${port}/`,
    /** Starts a daemon; with `script` (a FingerScript) it replays it after `delay` s. */
    async start(script = null, { delay = 1, loop = false, exitAfterReplay = false, speed = null, extra = [] } = {}) {
      const args = [];
      if (script) {
        const recording = join(directory, `input-${daemons.length}.evemu`);
        script.write(recording);
        args.push('--replay', recording, '--replay-delay', String(delay));
        if (loop) args.push('--loop');
        if (exitAfterReplay) args.push('--exit-after-replay');
        if (speed !== null) args.push('--speed', String(speed));
      }
      args.push(...extra);
      const daemon = new Daemon({ binary, directory, scene, socket: join(directory, 'touchd.sock'), port, args });
      daemons.push(daemon);
      return daemon.start();
    },
  };
  t.after(async () => {
    for (const daemon of daemons) await daemon.stop('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  });
  return factory;
}

/** The skip option of a test that needs the daemon: false, or why it is skipped. */
export function needsTouchd() {
  const { binary, reason } = findTouchd();
  return binary ? false : reason;
}
