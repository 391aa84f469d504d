import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createInbox, deliver, getMessage, listMessages } from '../support/inboxes.ts';
import { eventually } from '../support/eventually.ts';
import { startTestServer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

const KB = 1024;

describe('inbox intake: a per-inbox rate', () => {
  const RATE_BYTES = 64 * KB;
  const server = suiteServer(() => startTestServer({ inboxLimits: { bytesPerMinute: RATE_BYTES } }));

  it('answers 429 with Retry-After over the rate, and stores nothing over it', async () => {
    const inbox = await createInbox(server, { name: 'flooded' });
    const other = await createInbox(server, { name: 'a quiet neighbour' });
    const statuses: number[] = [];
    let refused: { text: string; retryAfter: string | null } | null = null;
    for (let i = 0; i < 10; i++) {
      const res = await fetch(inbox.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(16 * KB) });
      statuses.push(res.status);
      const text = await res.text();
      if (res.status === 429 && !refused) refused = { text, retryAfter: res.headers.get('retry-after') };
    }
    const accepted = statuses.filter((s) => s !== 429).length;
    assert.equal(accepted, RATE_BYTES / (16 * KB), `statuses: ${statuses.join(' ')}`);
    assert.ok(refused, 'the requests over the rate are refused');
    assert.match(refused.retryAfter ?? '', /^[1-9]\d*$/, 'Retry-After says how many seconds to wait');
    const error = (JSON.parse(refused.text) as { error: { code: string; message: string } }).error;
    assert.equal(error.code, 'TOO_MANY_REQUESTS');
    assert.match(error.message, /--inbox-max-mb-per-minute/, 'the message names the flag');
    assert.equal((await listMessages(server, inbox.uuid, 'per_page=100')).total, accepted, 'nothing over the rate is stored');

    const neighbour = await deliver(other.url, '{"hello":1}', { 'content-type': 'application/json' });
    assert.equal(neighbour.status, 400, 'another inbox has its own allowance');
  });
});

/** A local app that accepts connections and requests and never answers; counts its open connections. */
async function startHangingServer(): Promise<{
  url: string;
  open: () => number;
  peak: () => number;
  requests: () => number;
  close: () => Promise<void>;
}> {
  let open = 0;
  let peak = 0;
  let requests = 0;
  const server = http.createServer(() => {
    requests += 1;
  });
  server.on('connection', (socket) => {
    open += 1;
    peak = Math.max(peak, open);
    socket.on('close', () => {
      open -= 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    open: () => open,
    peak: () => peak,
    requests: () => requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('inbox forwards: bounded concurrency and a bounded queue', () => {
  const FORWARDS = 3;
  const QUEUE = 5;
  const MESSAGES = 20;
  const server = suiteServer(() => startTestServer({ inboxLimits: { forwards: FORWARDS, forwardQueue: QUEUE } }));
  let hanging: Awaited<ReturnType<typeof startHangingServer>>;
  before(async () => {
    hanging = await startHangingServer();
  });
  after(() => hanging.close());

  it('keeps at most N forwards open to a host that never answers, and records what is over the queue on the message', async () => {
    const inbox = await createInbox(server, { name: 'forwarding to a dead app', forward_to: hanging.url });
    const uuids: string[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const answer = await deliver(inbox.url, `{"n":${i}}`, { 'content-type': 'application/json' });
      assert.equal(answer.status, 400);
      uuids.push(answer.messageUuid);
    }
    const overQueue = MESSAGES - FORWARDS - QUEUE;
    const notQueued = async () => {
      const messages = await Promise.all(uuids.map((uuid) => getMessage(server, inbox.uuid, uuid)));
      return messages.filter((m) => m.relays.some((r) => r.kind === 'forward' && /queue/i.test(r.error ?? '')));
    };
    let refused: Awaited<ReturnType<typeof notQueued>> = [];
    for (let waited = 0; refused.length < overQueue && waited < 20_000; waited += 50) {
      refused = await notQueued();
      if (refused.length < overQueue) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(refused.length, overQueue, 'the forwards over the queue are not sent, and each message says so');
    assert.match(refused[0]?.relays[0]?.error ?? '', /--inbox-forward-queue/, 'the record names the flag');
    await eventually(() => hanging.requests() >= FORWARDS, `${FORWARDS} forwards reach the app`);
    assert.ok(hanging.peak() <= FORWARDS, `${hanging.peak()} connections were open at once, over ${FORWARDS}`);
    assert.equal(hanging.open(), FORWARDS);
  });
});
