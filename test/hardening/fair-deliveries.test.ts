import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { DEFAULT_PER_HOST_CONCURRENCY } from '../../server/webhooks/dispatcher.ts';
import { retryDelaysMs } from '../../server/webhooks/retry-schedule.ts';
import type { Delivery } from '../../server/webhooks/schemas.ts';
import { bearer, jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { startReceiver, waitFor } from '../webhooks/support.ts';

/** A TCP server on 127.0.0.1 that accepts every connection, reads what comes, and never answers. */
async function startHangingHost() {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  let closed = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.resume();
    socket.on('close', () => {
      sockets.delete(socket);
      closed++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: () => accepted,
    /** Connections the sender gave up (its attempt ended). */
    closed: () => closed,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Org = { uuid: string; auth: string };

async function register(server: TestServer, org: Org, url: string): Promise<string> {
  const res = await server.request('/api/webhooks/register', {
    ...jsonBody({ organization_uuid: org.uuid, url, events: ['service_confirmation.check_in'], sandbox_diagnostics: true }),
    headers: { 'content-type': 'application/json', authorization: org.auth },
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { uuid: string }).uuid;
}

async function checkIn(server: TestServer, org: Org): Promise<string[]> {
  const res = await server.request('/api/service-confirmations/simulate', {
    ...jsonBody({ organization_uuid: org.uuid, event: 'service_confirmation.check_in' }),
    headers: { 'content-type': 'application/json', authorization: org.auth },
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { deliveries: { delivery_id: string }[] }).deliveries.map((d) => d.delivery_id);
}

async function deliveriesOf(server: TestServer, org: Org, webhook: string): Promise<Delivery[]> {
  const res = await server.request(`/api/webhooks/uuid/${webhook}/deliveries?organization_uuid=${org.uuid}&per_page=100`, {
    headers: { authorization: org.auth },
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { items: Delivery[] }).items;
}

describe('a receiver that accepts and never answers slows only its own webhooks', () => {
  let server: TestServer;
  let hanging: Awaited<ReturnType<typeof startHangingHost>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    // The contract's whole-answer timeout (15 s): every hanging attempt stays open that long.
    server = await startTestServer({ webhookRetrySchedule: 'fast' });
    hanging = await startHangingHost();
    receiver = await startReceiver();
  });
  after(async () => {
    await server.stop();
    await hanging.close();
    await receiver.close();
  });

  it("another organization's burst and steady trickle all arrive while the hanging attempts are still open", async () => {
    const stuck: Org = { uuid: server.organizationUuid, auth: server.auth };
    const credentials = await createOrganization(server.ctx.db.kysely, { name: 'Bystander' });
    const bystander: Org = { uuid: credentials.organization_uuid, auth: bearer(credentials) };

    await register(server, stuck, `${hanging.url}/one`);
    await register(server, stuck, `${hanging.url}/two`);
    // Far more than every slot: the stuck organization's backlog is queued before the bystander's.
    for (let i = 0; i < 20; i++) await checkIn(server, stuck);
    await waitFor('the hanging host to hold connections', () => (hanging.accepted() >= 2 ? true : undefined));

    const webhook = await register(server, bystander, `${receiver.url}/bystander`);
    const arrived = () => new Set(receiver.received.map((r) => String(r.headers['x-sandbox-delivery-id'])));
    const settled = (ids: string[]) => () => (ids.every((id) => arrived().has(id)) || hanging.closed() > 0 ? true : undefined);

    const burst: string[] = [];
    for (let i = 0; i < 5; i++) burst.push(...(await checkIn(server, bystander)));
    await waitFor('the burst to arrive or a hanging attempt to end', settled(burst));
    assert.equal(hanging.closed(), 0, 'a hanging attempt ended before the burst arrived');
    assert.deepEqual(
      burst.filter((id) => !arrived().has(id)),
      [],
    );

    const trickle: string[] = [];
    for (let i = 0; i < 15; i++) {
      const ids = await checkIn(server, bystander);
      trickle.push(...ids);
      await waitFor(`trickle event ${i} to arrive or a hanging attempt to end`, settled(ids));
      if (hanging.closed() > 0) break;
    }
    assert.equal(hanging.closed(), 0, 'a hanging attempt ended before the trickle arrived');
    assert.equal(trickle.length, 15);
    assert.deepEqual(
      trickle.filter((id) => !arrived().has(id)),
      [],
    );
    assert.ok(
      hanging.accepted() <= DEFAULT_PER_HOST_CONCURRENCY,
      `the hanging host got ${hanging.accepted()} connections, more than its ${DEFAULT_PER_HOST_CONCURRENCY} slots`,
    );
    const delivered = await deliveriesOf(server, bystander, webhook);
    assert.equal(delivered.length, 20);
  });
});

describe("a hanging host's deliveries wait their turn and none is lost", () => {
  const TIMEOUT_MS = 2000;
  let server: TestServer;
  let host: http.Server;
  let url: string;
  let open = 0;
  let mostOpen = 0;
  let requests = 0;
  const HANGS = 12;
  before(async () => {
    server = await startTestServer({ webhookRetrySchedule: 'fast', webhookTimeoutMs: TIMEOUT_MS });
    // The first requests hang (each attempt times out); later ones are answered at once.
    host = http.createServer((req, res) => {
      requests++;
      open++;
      mostOpen = Math.max(mostOpen, open);
      res.on('close', () => open--);
      req.resume();
      if (requests > HANGS) req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  });
  after(async () => {
    await server.stop();
    host.closeAllConnections();
    await new Promise<void>((resolve) => host.close(() => resolve()));
  });

  it('every delivery ends delivered, retried on its schedule, never more than the per-host slots open at once', async () => {
    const org: Org = { uuid: server.organizationUuid, auth: server.auth };
    const webhooks = [await register(server, org, `${url}/one`), await register(server, org, `${url}/two`)];
    const queued: string[] = [];
    for (let i = 0; i < 10; i++) queued.push(...(await checkIn(server, org)));
    assert.equal(queued.length, 20);

    const all = async () => (await Promise.all(webhooks.map((w) => deliveriesOf(server, org, w)))).flat();
    const done = await waitFor(
      'every delivery to end',
      async () => {
        const items = await all();
        return items.length === 20 && items.every((d) => d.status !== 'pending') ? items : undefined;
      },
      60_000,
    );
    assert.deepEqual(
      done.filter((d) => d.status !== 'delivered').map((d) => [d.delivery_id, d.status]),
      [],
    );
    assert.deepEqual(done.map((d) => d.delivery_id).sort(), [...queued].sort());
    assert.ok(mostOpen <= DEFAULT_PER_HOST_CONCURRENCY, `${mostOpen} requests were open at once to one host`);
    const retried = done.filter((d) => d.attempts.length > 1);
    assert.ok(retried.length >= HANGS, `${retried.length} deliveries were retried; ${HANGS} requests hung`);
    for (const delivery of retried) {
      assert.match(delivery.attempts[0]?.error ?? '', /timeout/);
      delivery.attempts.slice(1).forEach((attempt, i) => {
        const failed = delivery.attempts[i];
        assert.ok(failed);
        const failedAt = Date.parse(failed.attempted_on) + (failed.duration_ms ?? 0);
        const waited = Date.parse(attempt.attempted_on) - failedAt;
        // A delivery waiting for a slot may go later than its schedule says, never sooner (ms rounding aside).
        assert.ok(
          waited >= (retryDelaysMs.fast[i] ?? 0) - 5,
          `${delivery.delivery_id}: attempt ${i + 2} came ${waited} ms after the failure`,
        );
      });
    }
  });
});
