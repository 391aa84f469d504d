import type { ServiceClient } from '../remote/service-client.ts';
import { watchTask } from '../remote/watch-task.ts';
import { eventTypes } from '../webhooks/events.ts';
import { demoQrCsv } from './demo-file.ts';

export const DEMO_SITES = 300;

export interface DemoSeedResult {
  seeded: boolean;
  reason?: string;
  inbox_url?: string;
  import_task_uuid?: string;
}

interface Page {
  total: number;
}

/**
 * Fills an empty organization through the API, as a client would: an inbox with a webhook
 * registered to it, and a real import of a few hundred sites (a finished task with excluded rows).
 * An organization that already has QR codes, tasks or webhooks is left as it is.
 */
export async function seedDemo(client: ServiceClient, organizationUuid: string): Promise<DemoSeedResult> {
  const org = `organization_uuid=${organizationUuid}`;
  const [qrcodes, tasks, webhooks] = await Promise.all(
    ['/api/qrcodes', '/api/background-tasks', '/api/webhooks'].map((path) => client.json<Page>(`${path}?${org}&per_page=1`)),
  );
  if ((qrcodes?.total ?? 0) + (tasks?.total ?? 0) + (webhooks?.total ?? 0) > 0) {
    return { seeded: false, reason: 'the organization already has data' };
  }

  const post = <T>(path: string, body: unknown) =>
    client.json<T>(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const inbox = await post<{ uuid: string; url: string }>('/api/inboxes', { organization_uuid: organizationUuid, name: 'Demo inbox' });
  await post('/api/webhooks/register', { organization_uuid: organizationUuid, url: inbox.url, events: [...eventTypes] });

  const form = new FormData();
  form.set('file', new Blob([demoQrCsv(DEMO_SITES)], { type: 'text/csv' }), 'demo-sites.csv');
  form.set('organization_uuid', organizationUuid);
  form.set('processing_mode', 'background');
  const accepted = await client.json<{ background_task_uuid: string }>('/api/qrcodes/bulk', { method: 'POST', body: form });
  await watchTask(client, accepted.background_task_uuid, { minIntervalMs: 200, maxIntervalMs: 500 });
  return { seeded: true, inbox_url: inbox.url, import_task_uuid: accepted.background_task_uuid };
}
