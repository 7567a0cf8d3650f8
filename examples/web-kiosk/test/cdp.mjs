// Headless Chromium driven over the Chrome DevTools Protocol, with the WebSocket the touchd client
// uses (Node's own, else the ws package: defaultWebSocket()): launch, attach to the page, send
// commands, hear events.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { defaultWebSocket } from '../../../clients/js/touchd.js';

/** The Chromium to use: $CHROMIUM, else the first of Debian's and others' names on the PATH;
 * null when there is none. */
export function findChromium() {
  const names = process.env.CHROMIUM ? [process.env.CHROMIUM] : ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
  for (const name of names) {
    const found = spawnSync('sh', ['-c', `command -v "${name}"`], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim()) return found.stdout.trim();
  }
  return null;
}

/** One DevTools connection: `send(method, params, sessionId)` resolves to the result or rejects
 * with the protocol's error; `on(method, listener)` hears events. */
export class CDP {
  static async connect(url) {
    const WebSocket = defaultWebSocket();
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error(`cannot connect to DevTools at ${url}`));
    });
    return new CDP(socket);
  }

  constructor(socket) {
    this.socket = socket;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Map();
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.id !== undefined) {
        const call = this.pending.get(message.id);
        if (!call) return;
        this.pending.delete(message.id);
        if (message.error) call.reject(new Error(`${call.method}: ${message.error.message}`));
        else call.resolve(message.result);
      } else {
        for (const listener of this.listeners.get(message.method) ?? []) listener(message.params, message.sessionId);
      }
    };
    socket.onclose = () => {
      for (const call of this.pending.values()) call.reject(new Error(`${call.method}: DevTools closed`));
      this.pending.clear();
    };
  }

  send(method, params = {}, sessionId = undefined) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  on(method, listener) {
    if (!this.listeners.has(method)) this.listeners.set(method, []);
    this.listeners.get(method).push(listener);
  }

  close() {
    this.socket.close();
  }
}

/** A page of the browser: its session's commands, and JavaScript evaluated in it. */
export class Page {
  constructor(cdp, sessionId) {
    this.cdp = cdp;
    this.sessionId = sessionId;
    this.console = [];
    this.errors = [];
    cdp.on('Runtime.consoleAPICalled', (params, session) => {
      if (session !== sessionId) return;
      this.console.push(`${params.type}: ${params.args.map((a) => a.value ?? a.description ?? '').join(' ')}`);
    });
    cdp.on('Runtime.exceptionThrown', (params, session) => {
      if (session !== sessionId) return;
      const details = params.exceptionDetails;
      this.errors.push(details.exception?.description ?? details.text);
    });
  }

  send(method, params = {}) {
    return this.cdp.send(method, params, this.sessionId);
  }

  /** The value of `expression` (JSON-able) in the page; rejects with the page's exception. */
  async evaluate(expression) {
    const result = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (result.exceptionDetails) {
      throw new Error(`in the page: ${result.exceptionDetails.exception?.description ?? result.exceptionDetails.text}`);
    }
    return result.result.value;
  }

  /** Waits until `expression` is truthy in the page; resolves to its value. */
  async waitFor(expression, { timeout = 30, interval = 0.1, what = expression } = {}) {
    const deadline = Date.now() + timeout * 1000;
    for (;;) {
      const value = await this.evaluate(expression).catch(() => undefined);
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeout} s waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, interval * 1000));
    }
  }

  async screenshot() {
    const { data } = await this.send('Page.captureScreenshot', { format: 'png' });
    return Buffer.from(data, 'base64');
  }
}

/** Starts headless Chromium with a viewport of `width` × `height` and the kiosk's switches, and
 * attaches to its page. Resolves to {browser, page, close()}. */
export async function launch(binary, { width = 1280, height = 800, timeout = 60 } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'touchd-chromium-'));
  const args = [
    '--headless=new',
    '--no-sandbox', // root in CI; the page is the test's own
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-extensions',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--mute-audio',
    '--hide-scrollbars',
    // The kiosk's switches (docs/integration.md): touchd recognizes the gestures.
    '--disable-pinch',
    '--overscroll-history-navigation=0',
    `--window-size=${width},${height}`,
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    'about:blank',
  ];
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const endpoint = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Chromium gave no DevTools address within ${timeout} s:\n${stderr}`)), timeout * 1000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const found = stderr.match(/DevTools listening on (ws:\/\/\S+)/);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before it listened:\n${stderr}`));
    });
  });
  const browser = await CDP.connect(endpoint);
  const { targetInfos } = await browser.send('Target.getTargets');
  let target = targetInfos.find((info) => info.type === 'page');
  if (!target) {
    const { targetId } = await browser.send('Target.createTarget', { url: 'about:blank' });
    target = { targetId };
  }
  const { sessionId } = await browser.send('Target.attachToTarget', { targetId: target.targetId, flatten: true });
  const page = new Page(browser, sessionId);
  await page.send('Page.enable');
  await page.send('Runtime.enable');
  // The viewport exactly: the scene's window size and the recording's axes depend on it.
  await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
  const close = async () => {
    try {
      await browser.send('Browser.close');
    } catch {
      // gone already
    }
    browser.close();
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(profile, { recursive: true, force: true });
  };
  return { browser, page, close, stderr: () => stderr };
}
