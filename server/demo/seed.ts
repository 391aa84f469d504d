import type { ServiceClient } from '../remote/service-client.ts';
import { watchTask } from '../remote/watch-task.ts';
import { catalogKey } from '../services/store.ts';
import { DEMO_SERVICES } from '../services/demo.ts';
import type { BackgroundTask } from '../tasks/schemas.ts';
import { demoAppointmentCsv, type DemoSite } from './demo-appointments.ts';
import { demoQrCsv } from './demo-file.ts';
import { addDemoWebhooks, sendBrokenSignature } from './demo-webhooks.ts';
import type { DemoSeedResult, DemoStep } from './schemas.ts';

export type { DemoSeedResult };

export const DEMO_SITES = 300;

interface Page<T> {
  items: T[];
  total: number;
  pages: number;
}

export interface SeedOptions {
  /** Called as each step starts, and with the progress of the imports. */
  onStep?: (step: DemoStep) => void;
  /** Steps a caller reports before the seed's own (a reset deletes first), and the caller's total. */
  stepOffset?: number;
  totalSteps?: number;
}

const STEPS = [
  'Adding the demo service catalog',
  'Adding the demo inbox, the flaky app and their webhooks',
  `Importing ${DEMO_SITES} demo sites`,
  'Importing a week of appointments',
  'Sending a delivery with a broken signature for the doctor',
];
export const DEMO_SEED_STEPS = STEPS.length;

/**
 * Fills an empty organization through the API, as a client would: the demo service catalog, two
 * receivers with a webhook each (the demo inbox, and a flaky app that fails some attempts), a real
 * import of a few hundred sites (a finished task with excluded rows), a week of appointments at those
 * sites (another import), and one delivery with a broken signature in the demo inbox.
 * An organization that already has QR codes, tasks or webhooks is left as it is.
 */
export async function seedDemo(client: ServiceClient, organizationUuid: string, options: SeedOptions = {}): Promise<DemoSeedResult> {
  const org = `organization_uuid=${organizationUuid}`;
  const [qrcodes, tasks, webhooks] = await Promise.all(
    ['/api/qrcodes', '/api/background-tasks', '/api/webhooks'].map((path) => client.json<Page<unknown>>(`${path}?${org}&per_page=1`)),
  );
  if ((qrcodes?.total ?? 0) + (tasks?.total ?? 0) + (webhooks?.total ?? 0) > 0) {
    return { seeded: false, reason: 'the organization already has QR codes, tasks or webhooks' };
  }
  const offset = options.stepOffset ?? 0;
  const of = options.totalSteps ?? STEPS.length;
  const step = (index: number, progress?: number) =>
    options.onStep?.({ step: offset + index + 1, of, label: STEPS[index] ?? '', ...(progress === undefined ? {} : { progress }) });

  step(0);
  const servicesAdded = await ensureDemoServices(client, organizationUuid);

  step(1);
  const { inbox, webhook, flaky, flakyWebhook } = await addDemoWebhooks(client, organizationUuid);

  step(2, 0);
  const sites = await importFile(client, organizationUuid, '/api/qrcodes/bulk', demoQrCsv(DEMO_SITES), 'demo-sites.csv', (p) => step(2, p));
  const siteResults = sites.results as { inserted?: number; excluded?: number } | null;

  step(3, 0);
  const schedule = demoAppointmentCsv(await listSites(client, organizationUuid));
  const appointments = await importFile(
    client,
    organizationUuid,
    '/api/appointment_schedule/bulk',
    schedule,
    'demo-appointments-week.csv',
    (p) => step(3, p),
  );
  const appointmentResults = appointments.results as { upserted?: number; excluded?: number } | null;

  step(4);
  const brokenMessage = await sendBrokenSignature(client, organizationUuid, inbox.uuid);

  return {
    seeded: true,
    services_added: servicesAdded,
    inbox_url: inbox.url,
    webhook_uuid: webhook.uuid,
    flaky_inbox_url: flaky.url,
    flaky_webhook_uuid: flakyWebhook.uuid,
    broken_signature_message_uuid: brokenMessage,
    import_task_uuid: sites.uuid,
    sites: siteResults?.inserted ?? 0,
    excluded_sites: siteResults?.excluded ?? 0,
    appointment_task_uuid: appointments.uuid,
    appointments: appointmentResults?.upserted ?? 0,
    excluded_appointments: appointmentResults?.excluded ?? 0,
  };
}

/** Adds the services of the demo catalog the organization lacks (a fresh demo organization has them all). */
async function ensureDemoServices(client: ServiceClient, organizationUuid: string): Promise<number> {
  const page = await client.json<Page<{ name: string; code: string | null }>>(
    `/api/services?organization_uuid=${organizationUuid}&per_page=100`,
  );
  const names = new Set(page.items.map((s) => catalogKey(s.name)));
  const codes = new Set(page.items.flatMap((s) => (s.code ? [catalogKey(s.code)] : [])));
  let added = 0;
  for (const service of DEMO_SERVICES) {
    if (names.has(catalogKey(service.name)) || codes.has(catalogKey(service.code))) continue;
    await client.request('/api/services', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organization_uuid: organizationUuid, name: service.name, code: service.code, categories: service.categories }),
    });
    added++;
  }
  return added;
}

/** Uploads a CSV file in background mode, as the GUI and the CLI do, and follows its task to the end. */
async function importFile(
  client: ServiceClient,
  organizationUuid: string,
  path: string,
  csv: string,
  filename: string,
  onProgress: (progress: number) => void,
): Promise<BackgroundTask> {
  const form = new FormData();
  form.set('file', new Blob([csv], { type: 'text/csv' }), filename);
  form.set('organization_uuid', organizationUuid);
  form.set('processing_mode', 'background');
  const accepted = await client.json<{ background_task_uuid: string }>(path, { method: 'POST', body: form });
  const task = await watchTask(client, accepted.background_task_uuid, {
    minIntervalMs: 200,
    maxIntervalMs: 500,
    onUpdate: (t) => onProgress(t.progress),
  });
  if (task.status === 'FAILED') throw new Error(`The demo import ${filename} failed: ${task.error_message ?? 'no reason given'}`);
  return task;
}

async function listSites(client: ServiceClient, organizationUuid: string): Promise<DemoSite[]> {
  const sites: DemoSite[] = [];
  for (let page = 1; ; page++) {
    const answer = await client.json<Page<DemoSite>>(`/api/qrcodes?organization_uuid=${organizationUuid}&per_page=100&page=${page}`);
    sites.push(...answer.items);
    if (page >= answer.pages) return sites;
  }
}
