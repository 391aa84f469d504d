import assert from 'node:assert/strict';
import http from 'node:http';
import { after, describe, it } from 'node:test';
import { messageWaiters } from '../../server/receiver/message-waiters.ts';
import type { MessageWait } from '../../server/receiver/schemas.ts';
import { eventually } from '../support/eventually.ts';
import { createInbox } from '../support/inboxes.ts';
import { bearer, jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import SQLite from 'better-sqlite3';

interface Answer {
  status: number | string;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A GET on `agent` (or a connection of its own) from `localAddress`: the status and body, or the error's code. */
function get(url: string, headers: Record<string, string>, options: { agent?: http.Agent; localAddress?: string } = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: options.agent ?? false, headers, localAddress: options.localAddress ?? '127.0.0.1' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? error.message, body: '', headers: {} }));
  });
}

/** Counts the runs of prepared statements (prepared once, run many times) whose SQL `match`es. */
function countRuns(match: (sql: string) => boolean): { count(): number; stop(): void } {
  const probe = new SQLite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as { all: (...args: unknown[]) => unknown };
  probe.close();
  const original = statement.all;
  let runs = 0;
  statement.all = function all(this: { source: string }, ...args: unknown[]) {
    if (match(this.source)) runs++;
    return original.apply(this, args);
  };
  return {
    count: () => runs,
    stop: () => {
      statement.all = original;
    },
  };
}

async function newKey(server: TestServer, role: string): Promise<string> {
  const res = await server.request('/api/api-keys', jsonBody({ role, name: `${role} for waits` }));
  return bearer((await res.json()) as { api_key: string; api_secret: string });
}

describe('long-polls (waits for inbox messages) cannot take the server down or lock the user out', () => {
  const servers: TestServer[] = [];
  after(() => Promise.all(servers.map((s) => s.stop())));

  it('caps waits per key and per organization with 429 and Retry-After; a flood of posts wakes them with one query per batch, not one per waiter', async () => {
    const server = await startTestServer({ inboxLimits: { waitsPerKey: 6, waitsPerOrganization: 9 } });
    servers.push(server);
    const inbox = await createInbox(server);
    const waitUrl = (query: Record<string, string>) =>
      `${server.url}/api/inboxes/uuid/${inbox.uuid}/messages/wait?${new URLSearchParams({ organization_uuid: server.organizationUuid, timeout_s: '60', ...query })}`;
    const first = await newKey(server, 'viewer');
    const second = await newKey(server, 'viewer');
    const waiters = messageWaiters(server.ctx);

    // Six waits of the first key for an event type that never comes, three of the second for any message.
    const never = Array.from({ length: 6 }, () => get(waitUrl({ event_type: 'never.sent' }), { authorization: first }));
    await eventually(() => waiters.held() === 6, 'six waits held');
    const overKey = await get(waitUrl({}), { authorization: first });
    assert.equal(overKey.status, 429);
    assert.match(
      JSON.parse(overKey.body).error.message,
      /This API key already holds 6 waits for inbox messages, the limit \(serve --inbox-waits-per-key\)/,
    );
    assert.ok(
      Number(overKey.headers['retry-after']) >= 1 && Number(overKey.headers['retry-after']) <= 60,
      'Retry-After: when the soonest ends',
    );
    const any = Array.from({ length: 3 }, () => get(waitUrl({}), { authorization: second }));
    await eventually(() => waiters.held() === 9, 'nine waits held');
    const overOrganization = await get(waitUrl({}), { authorization: second });
    assert.equal(overOrganization.status, 429);
    assert.match(
      JSON.parse(overOrganization.body).error.message,
      /This organization already holds 9 waits .*--inbox-waits-per-organization/,
    );

    const reads = countRuns((sql) => /from "inbox_messages"/.test(sql) && /"body_head"/.test(sql));
    let answers: Answer[];
    try {
      // 60 unauthenticated posts at once while health is asked.
      const posts = Array.from({ length: 60 }, (_, i) => fetch(inbox.url, { method: 'POST', body: `message ${i}` }));
      const health = await get(`${server.url}/api/health`, {});
      assert.equal(health.status, 200, 'health answers during the flood');
      await Promise.all(posts);
      answers = await Promise.all(any);
    } finally {
      reads.stop();
    }
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.ok((JSON.parse(answer.body) as MessageWait).messages.length >= 1, 'each wait got the messages');
    }
    assert.ok(
      reads.count() <= 3,
      `the three waits were answered from ${reads.count()} reads of messages (before: each waiter read again at every message, 360 for the six that match nothing)`,
    );
    assert.equal(waiters.held(), 6, 'the waits whose filter matched nothing are still held: no message woke them');
    await server.stop();
    servers.splice(servers.indexOf(server), 1);
    for (const answer of await Promise.all(never)) assert.equal(JSON.parse(answer.body).timed_out, true);
  });

  it('at the connection cap, held waits make room: the user’s kept-alive and new requests are served, and 127.x addresses share one cap', async () => {
    const server = await startTestServer({
      connections: { maxConnections: 50, maxConnectionsPerAddress: 10, keepAliveTimeoutMs: 60_000 },
      inboxLimits: { waitsPerKey: 100, waitsPerOrganization: 100 },
    });
    servers.push(server);
    const inbox = await createInbox(server);
    const waitUrl = `${server.url}/api/inboxes/uuid/${inbox.uuid}/messages/wait?organization_uuid=${server.organizationUuid}&timeout_s=60`;
    const waiters = messageWaiters(server.ctx);
    const user = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const auth = { authorization: server.auth };
    assert.equal((await get(`${server.url}/api/session`, auth, { agent: user })).status, 200, "the GUI's kept-alive connection");

    // Waits from 127.0.0.1 up to the client's cap of 10, with the user's connection and this test's own kept-alive ones.
    const open = await new Promise<number>((resolve) => server.httpServer.getConnections((_error, count) => resolve(count)));
    const room = 10 - open;
    assert.ok(room >= 4, `room for waits (${open} connections open)`);
    const held = Array.from({ length: room }, () => get(waitUrl, auth));
    await eventually(() => waiters.held() === room, 'the waits are held');
    const kept = await get(`${server.url}/api/background-tasks?organization_uuid=${server.organizationUuid}`, auth, { agent: user });
    assert.equal(kept.status, 200, 'the kept-alive request is served');
    const fresh = await get(`${server.url}/api/health`, {});
    assert.equal(fresh.status, 200, 'a new connection (the CLI) is served: the oldest wait made room');
    const evicted = await Promise.race(held);
    assert.equal(evicted.status, 200);
    assert.deepEqual(
      JSON.parse(evicted.body),
      { messages: [], timed_out: true, next_after: null },
      'the wait made to make room ends as timed out',
    );
    assert.equal(evicted.headers.connection, 'close');

    // Waits from 127.0.0.2 on (on another inbox, to tell them apart) count with those of 127.0.0.1: they make room by ending older ones.
    let ended = 0;
    for (const wait of held) void wait.then(() => ended++);
    const other = await createInbox(server);
    const sidestep: Promise<Answer>[] = [];
    for (let i = 2; i <= room + 1; i++) {
      const url = `${server.url}/api/inboxes/uuid/${other.uuid}/messages/wait?organization_uuid=${server.organizationUuid}&timeout_s=60`;
      sidestep.push(get(url, auth, { localAddress: `127.0.0.${i}` }));
      await eventually(() => waiters.held(other.uuid) === i - 1, `the wait from 127.0.0.${i} is held`);
    }
    await eventually(() => ended === room, 'the waits of 127.0.0.2 on ended all those of 127.0.0.1 to take their room');
    assert.equal(waiters.held(), room, 'as many waits held as the client has room for');
    const session = await get(`${server.url}/api/session`, auth, { agent: user });
    assert.equal(session.status, 200, 'and the user is still served');
    user.destroy();
    await server.stop();
    servers.splice(servers.indexOf(server), 1);
    await Promise.all([...held, ...sidestep]);
  });
});
