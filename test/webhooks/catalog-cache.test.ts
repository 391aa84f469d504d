import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../server/db/database.ts';
import type { ServiceConfirmation } from '../../server/confirmations/schemas.ts';
import type { Service } from '../../server/services/schemas.ts';
import { updateService } from '../../server/services/services.ts';
import { open } from '../../server/wire-format/open.ts';
import type { WebhookWithSecret } from '../../server/webhooks/schemas.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { startReceiver, waitFor } from './support.ts';

/**
 * Confirmations name services of the organization's catalog, which the server remembers between
 * events. Every change to the catalog must show in the very next event's delivered payload, also a
 * change made by another connection to the database file (the CLI, another process).
 */
describe('the service catalog that confirmations name', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let webhook: WebhookWithSecret;
  let qrCodeUuid: string;

  before(async () => {
    server = await startTestServer();
    receiver = await startReceiver();
    const res = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: server.organizationUuid, url: `${receiver.url}/hook`, events: ['service_confirmation.check_in'] }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    webhook = (await res.json()) as WebhookWithSecret;
    const simulated = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: server.organizationUuid, event: 'service_confirmation.check_in' }),
    );
    assert.equal(simulated.status, 201);
    qrCodeUuid = ((await simulated.json()) as { event: { data: ServiceConfirmation } }).event.data.qr_code_uuid;
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  /** A check-in naming `service` (by name or code), as its webhook delivery carried it. */
  async function deliveredCheckIn(service: string): Promise<ServiceConfirmation> {
    const res = await server.request(
      '/api/service-confirmations',
      jsonBody({ organization_uuid: server.organizationUuid, qr_code_uuid: qrCodeUuid, status: 'CHECK_IN', service }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    const created = (await res.json()) as ServiceConfirmation;
    return waitFor(`the delivery of confirmation ${created.uuid}`, () => {
      for (const request of receiver.received) {
        const signature = String(request.headers['x-service-signature']);
        const envelope = open(request.body, signature, webhook.secret).json as { data: ServiceConfirmation };
        if (envelope.data.uuid === created.uuid) return envelope.data;
      }
      return undefined;
    });
  }

  async function findService(code: string): Promise<Service> {
    const res = await server.request(`/api/services?organization_uuid=${server.organizationUuid}&per_page=100`);
    const found = ((await res.json()) as { items: Service[] }).items.find((s) => s.code === code);
    assert.ok(found, `service ${code}`);
    return found;
  }

  test('a service renamed and recategorised through the API is named so in the next event', async () => {
    const before = await deliveredCheckIn('PLB');
    assert.equal(before.services[0]?.name, 'Plumbing');

    const plumbing = await findService('PLB');
    const patched = await server.request(
      `/api/services/uuid/${plumbing.uuid}`,
      jsonBody({ name: 'Plumbing and Drains', categories: [{ name: 'Water' }, { name: 'Drains' }] }, 'PATCH'),
    );
    assert.equal(patched.status, 200, await patched.clone().text());

    const after = await deliveredCheckIn('PLB');
    assert.equal(after.service_uuid, plumbing.uuid);
    assert.equal(after.service, 'Plumbing and Drains');
    assert.equal(after.services[0]?.name, 'Plumbing and Drains');
    assert.deepEqual(
      after.services[0]?.service_categories.map((c) => c.name),
      ['Water', 'Drains'],
    );
  });

  test('a new service is named at once, and a deleted one no more', async () => {
    const created = await server.request(
      '/api/services',
      jsonBody({ organization_uuid: server.organizationUuid, name: 'Roof Repair', code: 'ROOF', categories: [{ name: 'Outdoor' }] }),
    );
    assert.equal(created.status, 201, await created.clone().text());
    const roof = (await created.json()) as Service;
    const named = await deliveredCheckIn('ROOF');
    assert.equal(named.service_uuid, roof.uuid);
    assert.equal(named.services[0]?.name, 'Roof Repair');

    const deleted = await server.request(`/api/services/uuid/${roof.uuid}`, { method: 'DELETE' });
    assert.equal(deleted.status, 204);
    const afterDelete = await deliveredCheckIn('ROOF');
    assert.ok(
      afterDelete.services.every((s) => s.uuid !== roof.uuid),
      'a deleted service is not in the catalog any more',
    );
  });

  test('a service renamed by another connection to the database (the CLI, another process) is named so in the next event', async () => {
    const cleaning = await findService('CLN');
    assert.equal((await deliveredCheckIn('CLN')).services[0]?.name, 'Cleaning');

    const other = openConnection(server.dataDir);
    try {
      await updateService(other, server.organizationUuid, cleaning.uuid, {
        name: 'Deep Cleaning',
        categories: [{ name: 'Hygiene' }],
      });
    } finally {
      await other.close();
    }

    const renamed = await deliveredCheckIn('CLN');
    assert.equal(renamed.service_uuid, cleaning.uuid);
    assert.equal(renamed.services[0]?.name, 'Deep Cleaning');
    assert.deepEqual(
      renamed.services[0]?.service_categories.map((c) => c.name),
      ['Hygiene'],
    );
  });
});
