import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';

const EVENTS = 20;

/** A receiver on a fixed port that can be taken down (connections refused) and brought back. */
function receiverOn(port: number, seen: Map<string, number>): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-sandbox-delivery-id']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.end('ok');
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('a receiver that is down gets everything once it is back (fast schedule)', () => {
  let server: TestServer;
  let receiver: http.Server | undefined;
  before(async () => {
    server = await startTestServer({ webhookRetrySchedule: 'fast' });
  });
  after(async () => {
    if (receiver) await close(receiver);
    await server.stop();
  });

  it('events sent while the port refuses connections all arrive after it reopens', async () => {
    const seen = new Map<string, number>();
    const probe = await receiverOn(0, seen);
    const port = (probe.address() as AddressInfo).port;
    await close(probe);

    const org = server.organizationUuid;
    const hook = await server.request(
      '/api/webhooks/register',
      jsonBody({
        organization_uuid: org,
        url: `http://127.0.0.1:${port}/hook`,
        events: ['service_confirmation.check_in'],
        sandbox_diagnostics: true,
      }),
    );
    assert.equal(hook.status, 201);
    const webhook = (await hook.json()) as { uuid: string };
    const expected = new Set<string>();
    for (let i = 0; i < EVENTS; i++) {
      const res = await server.request(
        '/api/service-confirmations/simulate',
        jsonBody({ organization_uuid: org, event: 'service_confirmation.check_in' }),
      );
      assert.equal(res.status, 201);
      for (const d of ((await res.json()) as { deliveries: { delivery_id: string }[] }).deliveries) expected.add(d.delivery_id);
    }
    assert.equal(expected.size, EVENTS);

    type Page = { items: { delivery_id: string; status: string; attempt_count: number }[] };
    const deliveries = async () =>
      ((await (await server.request(`/api/webhooks/uuid/${webhook.uuid}/deliveries?organization_uuid=${org}&per_page=100`)).json()) as Page)
        .items;
    // Down until every delivery has failed at least twice.
    for (let i = 0; i < 400; i++) {
      const items = await deliveries();
      if (items.length === EVENTS && items.every((d) => d.attempt_count >= 2)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const whileDown = await deliveries();
    assert.ok(
      whileDown.every((d) => d.status === 'pending' && d.attempt_count >= 2),
      JSON.stringify(whileDown.slice(0, 3)),
    );
    assert.equal(seen.size, 0);

    receiver = await receiverOn(port, seen);
    for (let i = 0; i < 600 && ![...expected].every((id) => seen.has(id)); i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(
      [...expected].filter((id) => !seen.has(id)),
      [],
      'deliveries never arrived',
    );
    for (let i = 0; i < 100 && !(await deliveries()).every((d) => d.status === 'delivered'); i++)
      await new Promise((r) => setTimeout(r, 50));
    assert.ok((await deliveries()).every((d) => d.status === 'delivered'));
  });
});
