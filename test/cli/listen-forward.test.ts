import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { open } from '../../server/wire-format/open.ts';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { runCli, startCli } from '../support/cli.ts';
import { answering, startCaptureServer, type CaptureServer } from '../support/inboxes.ts';

/** Headers as an object with lowercased names, from node's raw list. */
function headersOf(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) headers[(raw[i] ?? '').toLowerCase()] = raw[i + 1] ?? '';
  return headers;
}

describe('qr-sandbox listen --forward-to: deliveries reach the app as the service sends them', () => {
  let server: ChildServer;
  let app: CaptureServer;

  before(async () => {
    server = await startChildServer();
    app = await startCaptureServer(answering(202, 'accepted'));
  });
  after(async () => {
    await app.close();
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('forwards the exact body and headers, signed with the secret it printed, and prints the app status', async () => {
    const listen = startCli([
      'listen',
      '--forward-to',
      `${app.url}/webhooks`,
      '--events',
      'check_in',
      '--json',
      '--data-dir',
      server.dataDir,
    ]);
    await listen.waitFor(/"ready":true/);
    const ready = JSON.parse(listen.stdout().split('\n')[0] ?? '{}') as {
      webhook_uuid: string;
      secret: string;
      inbox_uuid: string;
      events: string[];
      forward_to: string;
    };
    assert.deepEqual(ready.events, ['service_confirmation.check_in']);
    assert.equal(ready.forward_to, `${app.url}/webhooks`);

    const ignored = await runCli(['trigger', 'check_out', '--json', '--data-dir', server.dataDir]);
    assert.match(ignored.stdout, /"deliveries":\[\]/, 'not subscribed to check_out');
    const triggered = await runCli(['trigger', 'check_in', '--json', '--data-dir', server.dataDir]);
    assert.equal(triggered.code, 0, triggered.stderr);
    const { event_id: eventId } = JSON.parse(triggered.stdout) as { event_id: string };

    const [received] = await app.waitFor(1);
    assert.ok(received);
    assert.equal(received.method, 'POST');
    assert.equal(received.url, '/webhooks');
    await listen.waitFor(/"type":"forward"/);
    const lines = listen
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const delivery = lines.find((line) => line.type === 'delivery');
    assert.equal(delivery?.event_id, eventId);
    assert.equal(delivery?.signature, 'valid');
    assert.equal((delivery?.data as { uuid?: string } | undefined)?.uuid !== undefined, true);
    const forward = lines.find((line) => line.type === 'forward');
    assert.equal(forward?.status_code, 202);
    assert.equal(forward?.event_id, eventId);
    assert.equal(typeof forward?.duration_ms, 'number');

    const headers = headersOf(received.rawHeaders);
    const opened = open(received.body.toString('utf8'), headers['x-service-signature'] ?? '', ready.secret);
    assert.equal(opened.verified, true, 'the signature verifies with the secret listen printed');
    assert.equal((opened.json as { id: string }).id, eventId);

    const deliveries = (await (
      await server.request(`/api/webhooks/uuid/${ready.webhook_uuid}/deliveries?organization_uuid=${server.organizationUuid}`)
    ).json()) as { items: Array<{ attempts: Array<{ request_headers: Record<string, string>; request_body: string }> }> };
    const sent = deliveries.items[0]?.attempts[0];
    assert.ok(sent);
    assert.equal(received.body.toString('utf8'), sent.request_body, 'the body bytes the service sent');
    for (const [name, value] of Object.entries(sent.request_headers)) {
      assert.equal(headers[name.toLowerCase()], value, `header ${name}`);
    }

    listen.signal('SIGTERM');
    const ended = await listen.done;
    assert.equal(ended.code, 0, ended.stderr);
    assert.equal((await server.request(`/api/webhooks/uuid/${ready.webhook_uuid}`)).status, 404);
  });

  it('reuses the inbox a listen left behind, and leaves it in place', async () => {
    const first = startCli(['listen', '--json', '--data-dir', server.dataDir]);
    await first.waitFor(/"ready":true/);
    const second = startCli(['listen', '--json', '--data-dir', server.dataDir]);
    await second.waitFor(/"ready":true/);
    const [a, b] = [first, second].map((cli) => JSON.parse(cli.stdout().split('\n')[0] ?? '{}') as Record<string, unknown>);
    assert.equal(b?.inbox_uuid, a?.inbox_uuid);
    assert.equal(b?.webhook_uuid, a?.webhook_uuid);
    assert.equal(b?.reused, true);
    second.signal('SIGINT');
    assert.match((await second.done).stderr, /Left the reused webhook and inbox in place/);
    first.signal('SIGINT');
    assert.equal((await first.done).code, 0);
  });

  it('says so and exits 2 when the server goes away under it', async () => {
    const listen = startCli(['listen', '--data-dir', server.dataDir]);
    await listen.waitFor(/^Ready\. Webhook /m);
    await server.stop();
    const ended = await listen.done;
    assert.equal(ended.code, 2, ended.stderr);
    assert.match(ended.stderr, /ended the live stream \(the server stopped\?\)\. Stopped listening/);
  });
});
