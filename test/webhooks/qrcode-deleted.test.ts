/**
 * qrcode.deleted, the sandbox's own opt-in event: a webhook that lists it gets an encrypted, signed
 * delivery of the deleted QR code; without one, deleting sends nothing and records no event.
 * The delivery is opened here as docs/webhooks.md tells a receiver to, with node:crypto.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { QrCode } from '../../server/qrcodes/schemas.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { registerWebhook } from '../support/webhooks.ts';
import { type ReceivedRequest, startReceiver, waitFor } from './support.ts';

function openAsDocsSay(request: ReceivedRequest, secret: string): { plaintext: string; signatureValid: boolean } {
  const signature = String(request.headers['x-service-signature']).replace(/^sha256=/, '');
  const payload = Buffer.from((JSON.parse(request.body) as { payload: string }).payload, 'base64');
  const decipher = crypto.createDecipheriv('aes-256-cbc', Buffer.from(signature.slice(0, 32), 'utf8'), payload.subarray(0, 16));
  const plaintext = Buffer.concat([decipher.update(payload.subarray(16)), decipher.final()]).toString('utf8');
  const expected = crypto.createHmac('sha256', secret).update(plaintext).digest('hex');
  return { plaintext, signatureValid: expected === signature };
}

describe('qrcode.deleted (opt-in, the sandbox’s own)', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    server = await startTestServer();
    receiver = await startReceiver();
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  async function createQrCode(name: string): Promise<QrCode> {
    const res = await server.request(
      '/api/qrcodes',
      jsonBody({ organization_uuid: server.organizationUuid, name, location: '1 Collins Street, Melbourne VIC 3000' }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as QrCode;
  }
  const deleteQrCode = async (uuid: string) => {
    const res = await server.request(`/api/qrcodes/uuid/${uuid}?organization_uuid=${server.organizationUuid}`, { method: 'DELETE' });
    assert.ok(res.ok, await res.clone().text());
  };
  const eventsOfType = async (type: string) => {
    const res = await server.request(`/api/webhook-events?organization_uuid=${server.organizationUuid}&type=${type}`);
    assert.equal(res.status, 200);
    return ((await res.json()) as { items: { id: string; qr_code_uuid: string | null; location: string | null }[] }).items;
  };

  test('off by default: a webhook of the service’s events gets nothing when a QR code is deleted, and no event is recorded', async () => {
    const webhook = await registerWebhook(server, `${receiver.url}/default`);
    const qrCode = await createQrCode('Off by default');
    await deleteQrCode(qrCode.uuid);
    // A check-in after the delete: once it has arrived, anything the delete had sent would have been queued before it.
    const checkIn = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: server.organizationUuid, event: 'service_confirmation.check_in' }),
    );
    assert.equal(checkIn.status, 201);
    await waitFor('the check-in delivery', () => receiver.received.find((r) => r.path === '/default'));
    const types = receiver.received
      .filter((r) => r.path === '/default')
      .map((r) => (JSON.parse(openAsDocsSay(r, webhook.secret).plaintext) as { type: string }).type);
    assert.deepEqual(types, ['service_confirmation.check_in']);
    assert.deepEqual(await eventsOfType('qrcode.deleted'), []);
  });

  test('a webhook that lists qrcode.deleted gets the deleted QR code, encrypted and signed', async () => {
    const webhook = await registerWebhook(server, `${receiver.url}/opted-in`, { events: ['qrcode.deleted'] });
    assert.deepEqual(webhook.events, ['qrcode.deleted']);
    const qrCode = await createQrCode('Opted in');
    await deleteQrCode(qrCode.uuid);
    const request = await waitFor('the qrcode.deleted delivery', () => receiver.received.find((r) => r.path === '/opted-in'));
    const { plaintext, signatureValid } = openAsDocsSay(request, webhook.secret);
    assert.equal(signatureValid, true);
    const envelope = JSON.parse(plaintext) as { id: string; type: string; created_at: string; data: QrCode };
    assert.deepEqual(Object.keys(envelope), ['id', 'type', 'created_at', 'data']);
    assert.equal(envelope.type, 'qrcode.deleted');
    assert.match(envelope.id, /^evt_[0-9a-f-]{36}$/);
    assert.deepEqual(envelope.data, qrCode, 'the QR code as GET /api/qrcodes/uuid/{uuid} gave it before the delete');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['x-sandbox-event'], undefined, 'no sandbox header without sandbox_diagnostics');

    const [listed] = await eventsOfType('qrcode.deleted');
    assert.equal(listed?.id, envelope.id);
    assert.equal(listed?.qr_code_uuid, qrCode.uuid, 'the events list names the deleted QR code');
    assert.equal(listed?.location, qrCode.location);
    const gone = await server.request(`/api/qrcodes/uuid/${qrCode.uuid}?organization_uuid=${server.organizationUuid}`);
    assert.equal(gone.status, 404);
  });

  test('deleting a QR code that is not there is a 404 and sends nothing', async () => {
    const before = receiver.received.length;
    const res = await server.request(
      `/api/qrcodes/uuid/00000000-0000-4000-8000-000000000000?organization_uuid=${server.organizationUuid}`,
      {
        method: 'DELETE',
      },
    );
    assert.equal(res.status, 404);
    assert.equal((await eventsOfType('qrcode.deleted')).length, 1, 'only the one of the test before');
    assert.equal(receiver.received.length, before);
  });

  test('it cannot be simulated: the simulate endpoint says how to cause one', async () => {
    const res = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: server.organizationUuid, event: 'qrcode.deleted' }),
    );
    assert.equal(res.status, 400);
    assert.match(await res.text(), /qrcode\.deleted cannot be simulated\. Delete a QR code/);
  });
});
