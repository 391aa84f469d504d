import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { logFile } from '../../server/logger.ts';
import { craft, deliveryHeaders } from '../support/deliveries.ts';
import { deliver } from '../support/inboxes.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { startReceiver } from '../webhooks/support.ts';

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('secrets and signature headers never reach the log', () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    server = await startTestServer({ logLevel: 'trace' });
    receiver = await startReceiver();
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  it('after deliveries, inbox receipts, key creation, profiles, decrypt and failed sign-ins, the log holds none of their secrets', async () => {
    const org = server.organizationUuid;
    const secrets: Record<string, string> = { admin_secret: server.auth.split(':')[1] ?? '' };

    const registered = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: org, url: `${receiver.url}/hook`, events: ['service_confirmation.check_in'] }),
    );
    assert.equal(registered.status, 201);
    const webhook = (await registered.json()) as { uuid: string };
    const withSecret = (await (await server.request(`/api/webhooks/uuid/${webhook.uuid}?include_secret=true`)).json()) as {
      secret: string;
    };
    secrets.webhook_secret = withSecret.secret;

    assert.equal(
      (
        await server.request(
          '/api/service-confirmations/simulate',
          jsonBody({ organization_uuid: org, event: 'service_confirmation.check_in' }),
        )
      ).status,
      201,
    );
    const sent = await until('the delivery', () => receiver.received[0]);
    const signature = String(sent.headers['x-service-signature'] ?? '');
    assert.match(signature, /^sha256=[0-9a-f]{64}$/);
    secrets.sent_signature = signature.slice('sha256='.length);

    const inboxSecret = 'inbox-secret-5d1c8a0b7e';
    const inboxRes = await server.request('/api/inboxes', jsonBody({ organization_uuid: org, name: 'log check', secrets: [inboxSecret] }));
    assert.equal(inboxRes.status, 201);
    const inbox = (await inboxRes.json()) as { url: string };
    secrets.inbox_secret = inboxSecret;
    const crafted = craft({ event: 'service_confirmation.check_in', data: { note: 'x' } }, inboxSecret);
    secrets.received_signature = crafted.signature;
    const received = await deliver(inbox.url, crafted.body, deliveryHeaders(crafted));
    assert.equal(received.status, 200, received.text);
    const forwarded = await deliver(inbox.url, sent.body, { 'content-type': 'application/json', 'x-service-signature': signature });
    assert.ok(forwarded.status < 500);

    const decrypted = await server.request(
      '/api/tools/decrypt',
      jsonBody({ payload: crafted.payload, signature: crafted.signatureHeader, secret: inboxSecret }),
    );
    assert.equal(decrypted.status, 200, await decrypted.clone().text());

    const key = (await (await server.request('/api/api-keys', jsonBody({ role: 'editor', name: 'log check' }))).json()) as {
      api_key: string;
      api_secret: string;
    };
    secrets.new_key_secret = key.api_secret;

    const profileSecret = 'profile-secret-0f9e8d7c6b';
    const profile = await server.request(
      '/api/profiles/logcheck',
      jsonBody({ name: 'logcheck', base_url: 'https://example.com', api_key: 'k', api_secret: profileSecret }, 'PUT'),
    );
    assert.ok(profile.status < 300, await profile.clone().text());
    secrets.profile_secret = profileSecret;

    const wrongSecret = 'wrong-secret-a1b2c3d4e5';
    const refused = await server.request(`/api/qrcodes?organization_uuid=${org}`, {
      headers: { authorization: `Bearer ${key.api_key}:${wrongSecret}` },
    });
    assert.equal(refused.status, 401);
    secrets.wrong_secret = wrongSecret;

    const log = fs.readFileSync(logFile(server.dataDir), 'utf8');
    assert.match(log, /"path":"\/inbox\//, 'inbox receipts are logged');
    assert.match(log, /"path":"\/api\/tools\/decrypt"/, 'API calls are logged');
    const found = Object.entries(secrets).filter(([, value]) => value.length > 0 && log.includes(value));
    assert.deepEqual(
      found.map(([name]) => name),
      [],
      'secrets in the log',
    );
    for (const [name, value] of Object.entries(secrets)) assert.ok(value.length >= 10, `${name} was captured`);
  });
});
