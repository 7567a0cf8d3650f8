// Reading messages in the tests.

import assert from 'node:assert/strict';

/** The next message, which must be of `type` (a type string or a list); messages whose type is
 * in `skip` are passed over. */
export async function nextOf(client, type, { timeout = 10, skip = [] } = {}) {
  const types = Array.isArray(type) ? type : [type];
  const deadline = Date.now() + timeout * 1000;
  for (;;) {
    const message = await client.nextMessage(Math.max(0, (deadline - Date.now()) / 1000));
    assert.notEqual(message, null, `no ${types.join(' or ')} within ${timeout} s`);
    if (skip.includes(message.type)) continue;
    assert.ok(types.includes(message.type), `expected ${types.join(' or ')}, got ${JSON.stringify(message)}`);
    return message;
  }
}

/** Messages up to and including the first whose seq is at least `seq`. */
export async function readUntilSeq(client, seq, timeout = 10) {
  const out = [];
  const deadline = Date.now() + timeout * 1000;
  while (Date.now() < deadline) {
    const message = await client.nextMessage((deadline - Date.now()) / 1000);
    assert.notEqual(message, null, `seq ${seq} not reached: ${JSON.stringify(out)}`);
    out.push(message);
    if ((message.seq ?? 0) >= seq) return out;
  }
  assert.fail(`seq ${seq} not reached: ${JSON.stringify(out)}`);
}

/** Every message up to the daemon's shutdown notice (`--exit-after-replay`), which is last. */
export async function collectUntilShutdown(client, timeout = 20) {
  const out = [];
  const deadline = Date.now() + timeout * 1000;
  while (Date.now() < deadline) {
    const message = await client.nextMessage((deadline - Date.now()) / 1000);
    if (message === null) break;
    out.push(message);
    if (message.type === 'shutdown') return out;
  }
  assert.fail(`no shutdown within ${timeout} s; got ${JSON.stringify(out)}`);
}

export const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** Fast reconnection for the tests. */
export const FAST = { initial: 0.05, maximum: 0.2 };
