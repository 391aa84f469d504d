import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { previewCsvFile } from './browser.ts';
import { jsonBody, startTestServer, tempDataDir, type TestServer } from '../../support/server.ts';
import { SHOT_SITES_CSV } from './import-shots.ts';
import { insertTaskRow } from '../../support/tasks.ts';

type Shot = (name: string, fullPage?: boolean) => Promise<unknown>;

const key = (server: TestServer) => server.auth.slice('Bearer '.length);

/**
 * Screenshots of remote mode: its own sandbox (the GUI), a second sandbox standing in for the
 * real service, one that was stopped, and one that stops while a task runs there.
 */
export async function startRemoteShots() {
  const [local, remote, gone] = await Promise.all([startTestServer(), startTestServer(), startTestServer()]);
  await gone.stop();
  const flakyDir = tempDataDir();
  let flaky = await startTestServer({ dataDir: flakyDir });
  const flakyPort = Number(new URL(flaky.url).port);
  await insertTaskRow(flaky, 'a1c3e5f7-0000-4000-8000-000000000001', {
    task_id: 'celery-42',
    progress: 37.5,
    metadata: { filename: 'all-sites-2026.csv', import_type: 'qr_code', source: 'file_upload' },
  });
  const [remoteKey = ''] = key(remote).split(':');
  const put = (name: string, body: Record<string, string>) => local.request(`/api/profiles/${name}`, jsonBody(body, 'PUT'));

  async function shots(page: Page, shot: Shot): Promise<void> {
    for (const name of ['staging', 'prod-eu', 'gone', 'wrong-secret', 'flaky'])
      await local.request(`/api/profiles/${name}`, { method: 'DELETE' });
    await page.goto(`${local.url}/remote#key=${key(local)}`);
    await page.getByText('No connection profiles yet').waitFor();
    await shot('remote-empty', true);
    const form = page.getByRole('form', { name: 'Add a connection profile' });
    await form.getByRole('button', { name: 'Save profile' }).click();
    await form.locator('.field-problem').first().waitFor();
    await shot('state-remote-form-missing', true);
    await form.getByLabel('Name', { exact: true }).fill('staging');
    await form.getByLabel('Base URL').fill(remote.url);
    await form.getByLabel('API key', { exact: true }).fill(key(remote));
    await form.getByLabel('organization_uuid (optional)').fill(remote.organizationUuid);
    await form.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('table', { name: 'Connection profiles' }).waitFor();
    await put('prod-eu', { base_url: 'https://qr-service.example.eu/tenant-emea', api_key: 'svc_7f2a9c', api_secret: 'x' });
    await put('gone', { base_url: gone.url, api_key: 'k', api_secret: 's', organization_uuid: gone.organizationUuid });
    await put('wrong-secret', {
      base_url: remote.url,
      api_key: remoteKey,
      api_secret: 'not-it',
      organization_uuid: remote.organizationUuid,
    });
    await put('flaky', {
      base_url: flaky.url,
      api_key: key(flaky).split(':')[0] ?? '',
      api_secret: key(flaky).split(':')[1] ?? '',
      organization_uuid: flaky.organizationUuid,
    });
    await page.reload();
    await page.getByRole('table', { name: 'Connection profiles' }).getByText('flaky').waitFor();
    await shot('remote-profiles');
    await shot('remote-profiles-full', true);
    await page.getByRole('button', { name: 'Remove prod-eu' }).click();
    await page.getByRole('dialog').waitFor();
    await shot('state-remote-remove-dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${local.url}/imports`);
    await previewCsvFile(page, 'sites.csv', SHOT_SITES_CSV);
    await page.getByRole('radio', { name: /prod-eu/ }).check();
    await page.getByRole('heading', { name: '3. Send' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot('state-imports-remote-no-org');
    await page.getByRole('radio', { name: /staging/ }).check();
    await page.getByText(/Show curl for the import/).click();
    await page.getByRole('heading', { name: '3. Send' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot('state-imports-remote-destination');
    await page.getByRole('button', { name: 'Send to staging' }).click();
    const finished = page.getByRole('heading', { name: 'Import finished on staging' });
    await finished.waitFor({ timeout: 60_000 });
    await finished.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await shot('state-imports-remote-result');
    await page.getByRole('link', { name: 'Remote task page' }).click();
    await page.getByRole('grid', { name: 'Excluded rows' }).waitFor();
    await shot('remote-task');
    await shot('remote-task-full', true);
    await page.goto(`${local.url}/remote/staging`);
    await page.getByRole('table', { name: 'Background tasks on staging' }).waitFor();
    await shot('remote-tasks');
    await page.goto(`${local.url}/remote/prod-eu`);
    await page.getByRole('form', { name: 'Organization' }).waitFor();
    await shot('state-remote-tasks-no-org');

    await page.goto(`${local.url}/remote/wrong-secret`);
    await page.getByRole('alert').waitFor();
    await shot('state-remote-tasks-401');
    await page.goto(`${local.url}/remote/gone/tasks/a1c3e5f7-0000-4000-8000-000000000001`);
    await page.getByRole('alert').waitFor();
    await shot('state-remote-task-refused');
    await page.goto(`${local.url}/remote/flaky/tasks/a1c3e5f7-0000-4000-8000-000000000001`);
    await page.getByText(/Last checked at/).waitFor();
    await shot('state-remote-task-running');
    await flaky.stop();
    await page.getByText(/Check 1 of 8 failed/).waitFor();
    await shot('state-remote-task-backing-off');
    flaky = await startTestServer({ dataDir: flakyDir, port: flakyPort });
  }

  async function close(): Promise<void> {
    await Promise.all([local.stop(), remote.stop(), flaky.stop()]);
    fs.rmSync(flakyDir, { recursive: true, force: true });
  }
  return { shots, close };
}
