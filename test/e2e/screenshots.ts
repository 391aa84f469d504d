/**
 * Screenshots of every GUI page at 1280x800 and 800x600, light and dark, into
 * test-results/screenshots/ (ignored by git), to look at while building pages:
 *   node test/e2e/screenshots.ts
 */
import path from 'node:path';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { seal } from '../../server/wire-format/seal.ts';
import { createInbox, listMessages } from '../support/inboxes.ts';
import { jsonBody, startTestServer } from '../support/server.ts';
import { startReceiver, waitFor } from '../webhooks/support.ts';
import { launchBrowser } from './support/browser.ts';
import { appointmentShots, seedAppointmentShots } from './support/appointment-shots.ts';
import { appointmentTaskShots, seedAppointmentTask } from './support/appointment-task-shots.ts';
import { geocoderShots } from './support/geocoder-shots.ts';
import { demoShots } from './support/demo-shots.ts';
import { attemptViewShots, demoFirstScreenShots } from './support/first-screen-shots.ts';
import { importCheckShots } from './support/import-check-shots.ts';
import { importShots } from './support/import-shots.ts';
import { startRemoteShots } from './support/remote-shots.ts';
import { inEveryLook, prepareShotRun } from './support/shot-run.ts';
import { excludedData, makeTask, seedTasks } from './support/seed.ts';

const outDir = await prepareShotRun('test-results/screenshots');
const server = await startTestServer();
const org = server.organizationUuid;
const big = makeTask(org, {
  results: { inserted: 88_000, excluded: 12_000, excluded_data: excludedData(1000) },
  metadata: { filename: 'all-sites-2026.csv', import_type: 'qr_code', source: 'file' },
});
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
const by = (api_key_name: string, api_key_role: string) => ({ api_key_name, api_key_role });
await seedTasks(server.ctx.db.kysely, [
  makeTask(org, {
    task_type: 'IMPORT',
    created_on: secondsAgo(3605),
    metadata: { import_type: 'json', source: 'api', ...by('CI pipeline', 'editor') },
    results: {
      qr_code_inserted: 40,
      qr_code_restored: 2,
      qr_code_tags_created: 40,
      excluded_qr_codes: [],
      qr_code_updated: 0,
      excluded_count: 0,
    },
  }),
  makeTask(org, {
    task_type: 'APPOINTMENT_IMPORT',
    status: 'FAILED',
    progress: 35,
    results: null,
    created_on: secondsAgo(1803),
    error_message: 'The file is not a valid XLSX workbook.',
    metadata: { filename: 'march.xlsx', source: 'file', ...by('Field admin', 'admin') },
  }),
  { ...big, created_on: secondsAgo(601), metadata: { ...big.metadata, ...by('My Organization admin', 'admin') } },
  makeTask(org, {
    status: 'PROCESSING',
    progress: 42.5,
    results: null,
    created_on: secondsAgo(12),
    metadata: { filename: 'depots-north.csv', import_type: 'csv', source: 'file_upload', ...by('Field admin', 'admin') },
  }),
]);
await seedAppointmentShots(server);
const appointmentTask = await seedAppointmentTask(server);
const credential = server.credentials;
if (!credential) throw new Error('no credential');

// Webhooks: one receiver that answers 200, one that fails, on the fast retry schedule.
const okReceiver = await startReceiver(() => ({ status: 200, body: '{"received":true}' }));
const badReceiver = await startReceiver(() => ({
  status: 503,
  body: '<html><body><h1>503 Service Unavailable</h1>No server is available to handle this request.</body></html>',
}));
await server.request('/api/settings', jsonBody({ webhook_retry_schedule: 'fast' }, 'PATCH'));
const registerHook = async (url: string, events: string[]) => {
  const res = await server.request('/api/webhooks/register', jsonBody({ organization_uuid: org, url, events }));
  return ((await res.json()) as { uuid: string }).uuid;
};
const allEvents = ['service_confirmation.check_in', 'service_confirmation.check_out', 'service_confirmation.delivery'];
const okHook = await registerHook(`${okReceiver.url}/hooks/qr-events`, allEvents);
const badHook = await registerHook(`${badReceiver.url}/webhooks`, ['service_confirmation.check_in']);
const offHook = await registerHook('https://hooks.example.com/qr-sandbox/receiver', ['service_confirmation.delivery']);
await server.request(`/api/webhooks/uuid/${offHook}`, jsonBody({ is_active: false }, 'PATCH'));
for (const event of ['service_confirmation.check_in', 'service_confirmation.check_out', 'service_confirmation.delivery']) {
  await server.request('/api/service-confirmations/simulate', jsonBody({ organization_uuid: org, event }));
}
await waitFor('the failing webhook to have retried', async () => {
  const page = (await (await server.request(`/api/webhooks/uuid/${badHook}/deliveries?organization_uuid=${org}`)).json()) as {
    items: { attempt_count: number }[];
  };
  return (page.items[0]?.attempt_count ?? 0) >= 2 ? true : undefined;
});
const empty = await createOrganization(server.ctx.db.kysely, { name: 'Empty Org' });
// An inbox with a valid delivery from a registered webhook, a duplicate, a wrong secret and a broken body.
const inbox = await createInbox(server, {
  name: 'Payroll integration',
  response: { status: 503, delay_ms: 2000 },
  forward_to: 'http://127.0.0.1:9/webhooks',
});
await server.request(
  '/api/webhooks/register',
  jsonBody({
    organization_uuid: org,
    url: inbox.url,
    events: ['service_confirmation.check_in', 'service_confirmation.check_out', 'service_confirmation.delivery'],
  }),
);
await server.request(`/api/inboxes/uuid/${inbox.uuid}`, jsonBody({ response: { status: null, delay_ms: 0 } }, 'PATCH'));
await server.request('/api/service-confirmations/simulate', jsonBody({ organization_uuid: org, event: 'service_confirmation.check_in' }));
// The hand-made one copies the real event with a few changes, so the comparison shows a realistic diff.
let simulated = (await listMessages(server, inbox.uuid)).items;
for (let i = 0; i < 50 && simulated.length < 1; i += 1) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  simulated = (await listMessages(server, inbox.uuid)).items;
}
const realEnvelope = simulated[0]?.envelope as { data: Record<string, unknown> } | undefined;
if (!realEnvelope) throw new Error('the simulated event did not arrive');
const copied = {
  ...realEnvelope,
  id: 'evt_hand-made',
  type: 'service_confirmation.check_out',
  data: { ...realEnvelope.data, status: 'CHECK_OUT', note: 'Signed with the wrong secret.' },
};
const handMade = seal(JSON.stringify(copied), 'wrong-secret');
const post = (body: string, headers: Record<string, string>) =>
  fetch(inbox.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
await post(handMade.body, {
  'x-service-signature': handMade.signatureHeader,
  'x-sandbox-event': 'service_confirmation.check_out',
  'x-sandbox-delivery-id': 'hand-made-1',
});
await post(handMade.body, {
  'x-service-signature': handMade.signatureHeader,
  'x-sandbox-event': 'service_confirmation.check_out',
  'x-sandbox-delivery-id': 'hand-made-1',
});
await post('{"payload":"not base64!"}', { 'x-service-signature': handMade.signatureHeader });
let messages = (await listMessages(server, inbox.uuid)).items;
for (let i = 0; i < 50 && messages.length < 4; i += 1) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  messages = (await listMessages(server, inbox.uuid)).items;
}
const validMessage = messages.find((m) => m.signature_status === 'valid');
const brokenMessage = messages.find((m) => !m.decrypted);
const duplicate = messages.find((m) => m.duplicate_of !== null);
const invalidMessage = messages.find((m) => m.signature_status === 'invalid' && m.duplicate_of === null);
if (!validMessage || !brokenMessage || !duplicate || !invalidMessage) throw new Error(`inbox seed incomplete: ${messages.length} messages`);
const emptyInbox = await createInbox(server, { name: 'Staging (empty)' });
const remoteShots = await startRemoteShots();
const browser = await launchBrowser();
const pages = [
  '/tasks',
  `/tasks/${big.uuid}`,
  '/settings',
  '/imports',
  '/qrcodes',
  '/appointments',
  '/appointments/services',
  '/appointments/import-handlers',
  '/webhooks',
  `/webhooks/${okHook}`,
  `/webhooks/${badHook}`,
  '/inspector',
  '/decrypt',
  '/nowhere',
];
const inspectorPages: [string, string][] = [
  ['inbox', `/inspector/${inbox.uuid}`],
  ['inbox-empty', `/inspector/${emptyInbox.uuid}`],
  ['message-valid', `/inspector/${inbox.uuid}/messages/${validMessage.uuid}`],
  ['message-broken', `/inspector/${inbox.uuid}/messages/${brokenMessage.uuid}`],
  ['message-duplicate', `/inspector/${inbox.uuid}/messages/${duplicate.uuid}`],
  ['compare', `/inspector/${inbox.uuid}/compare?a=${invalidMessage.uuid}&b=${validMessage.uuid}`],
];
try {
  await inEveryLook(browser, outDir, async (gui, shot) => {
    await gui.page.goto(`${server.url}/`);
    await gui.page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shot('signin');
    await gui.page.goto(`${server.url}/tasks#key=${credential.api_key}:${credential.api_secret}`);
    await gui.page.getByRole('navigation', { name: 'Main' }).waitFor();
    for (const pagePath of pages) {
      await gui.page.goto(`${server.url}${pagePath}`);
      await gui.page.getByRole('heading', { level: 1 }).first().waitFor();
      await gui.page.waitForLoadState('networkidle').catch(() => undefined);
      const name =
        pagePath
          .split('/')
          .filter(Boolean)
          .join('-')
          .replace(big.uuid, 'detail')
          .replace(okHook, 'delivered')
          .replace(badHook, 'failing') || 'home';
      await shot(name);
    }
    // Whole pages, top to bottom, for the long ones.
    for (const [name, pagePath] of [
      ['full-settings', '/settings'],
      ['full-webhooks', '/webhooks'],
      ['full-webhook-failing', `/webhooks/${badHook}`],
    ] as const) {
      await gui.page.goto(`${server.url}${pagePath}`);
      await gui.page.getByRole('heading', { level: 1 }).first().waitFor();
      await gui.page.waitForLoadState('networkidle').catch(() => undefined);
      await shot(name, true);
    }
    for (const [name, pagePath] of inspectorPages) {
      await gui.page.goto(`${server.url}${pagePath}`);
      await gui.page.getByRole('heading', { level: 1 }).first().waitFor();
      await gui.page.waitForLoadState('networkidle').catch(() => undefined);
      await shot(`inspector-${name}`);
    }
    // Further down the long pages, one viewport at a time.
    const sections: [string, string, string][] = [
      ['inbox-messages', `/inspector/${inbox.uuid}`, 'Messages'],
      ['message-headers', `/inspector/${inbox.uuid}/messages/${validMessage.uuid}`, 'Headers'],
      ['message-replay', `/inspector/${inbox.uuid}/messages/${validMessage.uuid}`, 'Replay and forward'],
      ['compare-changes', `/inspector/${inbox.uuid}/compare?a=${invalidMessage.uuid}&b=${validMessage.uuid}`, 'Changed values'],
      ['compare-json', `/inspector/${inbox.uuid}/compare?a=${invalidMessage.uuid}&b=${validMessage.uuid}`, 'Decrypted JSON'],
    ];
    for (const [name, pagePath, heading] of sections) {
      await gui.page.goto(`${server.url}${pagePath}`);
      const target = gui.page.getByRole('heading', { name: heading, level: 2 });
      await target.waitFor();
      await target.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await shot(`inspector-${name}`);
    }
    await gui.page.goto(`${server.url}/inspector/${inbox.uuid}`);
    await gui.page.getByRole('button', { name: 'Edit' }).click();
    await gui.page.getByRole('button', { name: 'Save changes' }).waitFor();
    await gui.page.getByLabel('Answer status').fill('42');
    await gui.page.getByRole('button', { name: 'Save changes' }).click();
    await gui.page.locator('.field-problem').first().waitFor();
    await shot('state-inspector-edit-invalid');
    await gui.page.getByLabel('Include the signature').check();
    await gui.page.getByRole('heading', { name: 'Export' }).scrollIntoViewIfNeeded();
    await shot('state-inspector-export-warning');
    await gui.page.goto(`${server.url}/decrypt`);
    await gui.page.getByLabel('Body or payload').fill(validMessage.body);
    await gui.page.getByLabel('Signature header').fill(validMessage.headers['x-service-signature'] ?? '');
    await gui.page.getByRole('button', { name: 'Decrypt and verify' }).click();
    await gui.page.getByRole('region', { name: 'Result' }).waitFor();
    await gui.page.getByRole('heading', { name: 'Result' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot('state-decrypt-result');
    await gui.page
      .getByLabel('Signature header')
      .fill(handMade.signatureHeader.toUpperCase().replace('SHA256=', 'X-Service-Signature: sha256='));
    await gui.page.getByRole('button', { name: 'Decrypt and verify' }).click();
    await gui.page.getByText('Not decrypted').waitFor();
    await gui.page.getByRole('heading', { name: 'Result' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot('state-decrypt-hints');
    await gui.page.goto(`${server.url}/tasks/${big.uuid}`);
    await gui.page.getByRole('grid', { name: 'Excluded rows' }).locator('[aria-rowindex="4"]').click();
    await gui.page.getByRole('region', { name: /Excluded row \d/ }).scrollIntoViewIfNeeded();
    await shot('state-task-row-details');
    await gui.page.goto(`${server.url}/tasks`);
    await gui.page.getByText('Show curl').click();
    await shot('state-tasks-curl');
    await gui.page.goto(`${server.url}/settings`);
    await gui.page.getByLabel('Name').fill('CI import job');
    await gui.page.getByRole('button', { name: 'Create API key' }).click();
    await gui.page.getByRole('region', { name: /created/ }).waitFor();
    await shot('state-settings-new-key');
    await gui.page.getByRole('button', { name: 'Done' }).click();
    await gui.page.getByRole('button', { name: 'Revoke CI import job' }).click();
    await gui.page.getByRole('dialog').waitFor();
    await shot('state-settings-revoke-dialog');
    await gui.page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await gui.page.getByRole('button', { name: 'Create API key' }).click();
    await gui.page.locator('#key-name-problem').waitFor();
    await shot('state-settings-validation');
    await gui.page.goto(`${server.url}/webhooks`);
    await gui.page.getByLabel('URL', { exact: true }).fill('http://hooks.example.com/receiver');
    await gui.page.getByRole('checkbox', { name: /Check-out/ }).uncheck();
    await gui.page.getByRole('button', { name: 'Register webhook' }).click();
    await gui.page.locator('#webhook-url-problem').waitFor();
    await gui.page.locator('#webhook-url-problem').scrollIntoViewIfNeeded();
    await shot('state-webhooks-register-error');
    await gui.page.getByLabel('URL', { exact: true }).fill(`${okReceiver.url}/second`);
    await gui.page.getByRole('button', { name: 'Register webhook' }).click();
    await gui.page.getByRole('region', { name: 'Webhook registered' }).waitFor();
    await shot('state-webhooks-secret');
    await gui.page.getByRole('button', { name: 'Done' }).click();
    await gui.page.getByRole('button', { name: 'Send test event' }).click();
    await gui.page.getByRole('region', { name: 'Event sent' }).waitFor();
    await gui.page.getByRole('region', { name: 'Event sent' }).scrollIntoViewIfNeeded();
    await shot('state-webhooks-event-sent');
    await gui.page.getByRole('region', { name: 'Event sent' }).getByRole('link').first().click();
    await gui.page.locator('.delivery-highlighted').getByText('Delivered').waitFor();
    await shot('state-webhook-highlighted-delivery');
    await gui.page.getByRole('button', { name: 'Reveal secret' }).click();
    await gui.page.getByRole('button', { name: 'Hide' }).waitFor();
    await gui.page.getByRole('button', { name: 'Delete webhook' }).click();
    await gui.page.getByRole('dialog').waitFor();
    await shot('state-webhook-delete-dialog');
    await gui.page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await importShots(gui.page, server.url, shot);
    await importCheckShots(gui.page, server, shot);
    await appointmentShots(gui.page, server.url, shot);
    await remoteShots.shots(gui.page, shot);
    await appointmentTaskShots(gui.page, server.url, appointmentTask, shot);
    await geocoderShots(gui.page, server.url, shot);
    await gui.page.goto(`${server.url}/tasks?status=FAILED&task_type=IMPORT`);
    await gui.page.getByText('No tasks match these filters').waitFor();
    await shot('state-tasks-no-match');
    await gui.page.goto(`${server.url}/tasks/00000000-0000-0000-0000-000000000000`);
    await gui.page.getByRole('alert').waitFor();
    await shot('state-task-not-found');
    await gui.page.getByRole('button', { name: 'Sign out' }).click();
    await gui.page.goto(`${server.url}/tasks#key=${empty.api_key}:${empty.api_secret}`);
    await gui.page.getByText('No background tasks yet').waitFor();
    await shot('state-tasks-empty');
    await gui.page.goto(`${server.url}/webhooks`);
    await gui.page.getByText('No webhooks yet').waitFor();
    await shot('state-webhooks-empty');
    await gui.page.goto(`${server.url}/appointments`);
    await gui.page.getByText('No appointments yet').waitFor();
    await shot('state-appointments-empty');
    await gui.page.goto(`${server.url}/appointments/import-handlers`);
    await gui.page.getByText('No import handlers yet').waitFor();
    await shot('state-import-handlers-empty');
    await gui.page.getByRole('button', { name: 'Sign out' }).click();
    await gui.page.getByLabel('API key and secret').fill('qrs_abc:wrong');
    await gui.page.getByRole('button', { name: 'Sign in' }).click();
    await gui.page.getByRole('alert').waitFor();
    await shot('state-signin-wrong');
    // Sign-out in another tab of the same browser signs this one out too.
    await gui.page.goto(`${server.url}/tasks#key=${credential.api_key}:${credential.api_secret}`);
    await gui.page.getByRole('navigation', { name: 'Main' }).waitFor();
    const otherTab = await gui.context.newPage();
    await otherTab.goto(`${server.url}/tasks/${big.uuid}`);
    await otherTab.getByRole('button', { name: 'Sign out' }).click();
    await gui.page.getByText('You signed out in another tab or window.').waitFor();
    await shot('state-signin-signed-out-elsewhere');
    await otherTab.close();
  });
  await demoShots(browser, outDir);
  const firstScreenShot = (name: string, target: Pick<import('playwright-core').Page, 'screenshot'>) =>
    target.screenshot({ path: path.join(outDir, `${name}.png`) }).then(() => undefined);
  await demoFirstScreenShots(browser, firstScreenShot);
  await attemptViewShots(browser, firstScreenShot);
} finally {
  await browser.close();
  await server.stop();
  await remoteShots.close();
  await okReceiver.close();
  await badReceiver.close();
}
process.stdout.write(`Screenshots in ${outDir}\n`);
