import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DemoMode, startDemoMode } from '../../server/demo/demo-mode.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';

interface Page<T> {
  items: T[];
  total: number;
}
interface Delivery {
  status: string;
  next_attempt_on: string | null;
  attempts: { attempt: number; status_code: number | null; response_body: string | null }[];
}

const FIRST_MINUTE_MS = 60_000;

/** Issue 42: a fresh demo shows retries, a failed attempt, several workers and a broken signature within its first minute. */
describe('the demo tells the whole story in its first minute', () => {
  let server: TestServer;
  let demo: DemoMode;
  const org = () => `organization_uuid=${server.organizationUuid}`;
  const list = async <T>(path: string) =>
    (await (await server.request(`${path}${path.includes('?') ? '&' : '?'}${org()}&per_page=100`)).json()) as Page<T>;
  const inbox = async (name: string) => {
    const found = (await list<{ uuid: string; name: string; url: string }>('/api/inboxes')).items.find((i) => i.name === name);
    assert.ok(found, name);
    return found;
  };

  before(async () => {
    server = await startTestServer();
    demo = await startDemoMode(server, 1_000);
  });
  after(async () => {
    await demo.stop();
    await server.stop();
  });

  it('the flaky app fails a first attempt with 503 and a later attempt delivers it', async () => {
    const flaky = await inbox('Flaky app');
    const webhook = (await list<{ uuid: string; url: string }>('/api/webhooks')).items.find((w) => w.url === flaky.url);
    assert.ok(webhook, 'a webhook to the flaky app');
    const retried = await waitFor(
      'a delivery failed then delivered',
      async () => {
        const page = await list<Delivery>(`/api/webhooks/uuid/${webhook.uuid}/deliveries?status=delivered`);
        return page.items.find((d) => d.attempts.length > 1);
      },
      FIRST_MINUTE_MS,
    );
    const ordered = [...retried.attempts].sort((a, b) => a.attempt - b.attempt);
    assert.equal(ordered[0]?.status_code, 503, 'the first attempt failed');
    assert.match(ordered[0]?.response_body ?? '', /Flaky app/, "the failed attempt's detail says why");
    assert.equal(ordered.at(-1)?.status_code, 200, 'the last attempt was delivered');
  });

  it('the events are by more than one worker', async () => {
    const workers = await waitFor(
      'two workers',
      async () => {
        const names = new Set((await list<{ worker: string | null }>('/api/webhook-events')).items.map((e) => e.worker));
        return names.size >= 2 ? names : undefined;
      },
      FIRST_MINUTE_MS,
    );
    assert.ok(![...workers].includes(null), 'every event names its worker');
  });

  it('the demo inbox holds one message whose signature is invalid, and it decrypts (the doctor explains it)', async () => {
    const demoInbox = await inbox('Demo inbox');
    const invalid = await list<{ uuid: string; decrypted: boolean; signature_status: string }>(
      `/api/inboxes/uuid/${demoInbox.uuid}/messages?signature_status=invalid`,
    );
    assert.equal(invalid.total, 1);
    assert.equal(invalid.items[0]?.decrypted, true, 'sealed with a wrong secret: the key comes from the signature, so it decrypts');
  });
});
