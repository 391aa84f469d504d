/**
 * Screenshots of every GUI page at 1280x800 and 800x600, light and dark, into
 * test-results/screenshots/ (ignored by git), to look at while building pages:
 *   node test/e2e/screenshots.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureRendererBuild } from '../../renderer/scripts/build.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { jsonBody, startTestServer } from '../support/server.ts';
import { startReceiver, waitFor } from '../webhooks/support.ts';
import { browserUnavailable, launchBrowser, openPage } from './support/browser.ts';
import { excludedData, makeTask, seedTasks } from './support/seed.ts';

const outDir = path.resolve('test-results/screenshots');
const reason = browserUnavailable();
if (reason) {
  process.stderr.write(`${reason}\n`);
  process.exit(1);
}
await ensureRendererBuild();
fs.mkdirSync(outDir, { recursive: true });
const server = await startTestServer();
const org = server.organizationUuid;
const big = makeTask(org, { results: { inserted: 88_000, excluded: 12_000, excluded_data: excludedData(1000) }, metadata: { filename: 'all-sites-2026.csv', import_type: 'qr_code', source: 'file' } });
await seedTasks(server.ctx.db.kysely, [
  makeTask(org, { task_type: 'IMPORT', metadata: null, results: { qr_code_inserted: 40, qr_code_restored: 2, qr_code_tags_created: 40, excluded_qr_codes: [] } }),
  makeTask(org, { task_type: 'APPOINTMENT_IMPORT', status: 'FAILED', progress: 35, results: null, error_message: 'The file is not a valid XLSX workbook.', metadata: { filename: 'march.xlsx', source: 'file' } }),
  big,
  makeTask(org, { status: 'PROCESSING', progress: 42.5, results: null }),
]);
const credential = server.credentials;
if (!credential) throw new Error('no credential');

// Webhooks: one receiver that answers 200, one that fails, on the fast retry schedule.
const okReceiver = await startReceiver(() => ({ status: 200, body: '{"received":true}' }));
const badReceiver = await startReceiver(() => ({ status: 503, body: '<html><body><h1>503 Service Unavailable</h1>No server is available to handle this request.</body></html>' }));
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
  const page = (await (await server.request(`/api/webhooks/uuid/${badHook}/deliveries?organization_uuid=${org}`)).json()) as { items: { attempt_count: number }[] };
  return (page.items[0]?.attempt_count ?? 0) >= 2 ? true : undefined;
});
const empty = await createOrganization(server.ctx.db.kysely, { name: 'Empty Org' });
const browser = await launchBrowser();
const pages = ['/tasks', `/tasks/${big.uuid}`, '/settings', '/imports', '/qrcodes', '/appointments', '/webhooks', `/webhooks/${okHook}`, `/webhooks/${badHook}`, '/inspector', '/decrypt', '/nowhere'];
try {
  for (const [width, height] of [
    [1280, 800],
    [800, 600],
  ] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      const gui = await openPage(browser, { width, height, colorScheme: scheme });
      await gui.page.goto(`${server.url}/`);
      await gui.page.getByRole('button', { name: 'Sign in' }).waitFor();
      await gui.page.screenshot({ path: path.join(outDir, `signin-${width}x${height}-${scheme}.png`) });
      await gui.page.goto(`${server.url}/tasks#key=${credential.api_key}:${credential.api_secret}`);
      await gui.page.getByRole('navigation', { name: 'Main' }).waitFor();
      for (const pagePath of pages) {
        await gui.page.goto(`${server.url}${pagePath}`);
        await gui.page.getByRole('heading', { level: 1 }).first().waitFor();
        await gui.page.waitForLoadState('networkidle').catch(() => undefined);
        const name =
          pagePath.split('/').filter(Boolean).join('-').replace(big.uuid, 'detail').replace(okHook, 'delivered').replace(badHook, 'failing') || 'home';
        await gui.page.screenshot({ path: path.join(outDir, `${name}-${width}x${height}-${scheme}.png`) });
      }
      const shot = (name: string) => gui.page.screenshot({ path: path.join(outDir, `${name}-${width}x${height}-${scheme}.png`) });
      // Whole pages, top to bottom, for the long ones.
      for (const [name, pagePath] of [
        ['full-settings', '/settings'],
        ['full-webhooks', '/webhooks'],
        ['full-webhook-failing', `/webhooks/${badHook}`],
      ] as const) {
        await gui.page.goto(`${server.url}${pagePath}`);
        await gui.page.getByRole('heading', { level: 1 }).first().waitFor();
        await gui.page.waitForLoadState('networkidle').catch(() => undefined);
        await gui.page.screenshot({ path: path.join(outDir, `${name}-${width}x${height}-${scheme}.png`), fullPage: true });
      }
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
      await gui.page.getByRole('button', { name: 'Sign out' }).click();
      await gui.page.getByLabel('API key and secret').fill('qrs_abc:wrong');
      await gui.page.getByRole('button', { name: 'Sign in' }).click();
      await gui.page.getByRole('alert').waitFor();
      await shot('state-signin-wrong');
      if (gui.problems.length) process.stderr.write(`${gui.problems.join('\n')}\n`);
      await gui.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
  await okReceiver.close();
  await badReceiver.close();
}
process.stdout.write(`Screenshots in ${outDir}\n`);
