/**
 * The GUI in Debian's Chromium against a real server on a temp data dir: one browser for the
 * whole file, one fresh context (own localStorage) per flow.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, describe, test } from 'node:test';
import { startServer, type RunningServer } from '../../server/server.ts';
import { bearer, jsonBody, tempDataDir } from '../support/server.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession, waitForLive } from './support/session.ts';
import { excludedData, makeTask, seedTasks } from './support/seed.ts';
import { taskUpdates } from '../../server/tasks/state.ts';

// The runner prints the reason next to SKIP when Chromium is missing.
const skip = browserUnavailable();

describe('GUI in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();
  let signInLink: string;

  before(() => {
    const c = server.credentials;
    assert.ok(c);
    signInLink = `${server.url}/#key=${c.api_key}:${c.api_secret}`;
  });

  const newPage = (size?: { width?: number; height?: number }) => session.newPage(size);
  const signedInPage = (pathname?: string, credential?: { api_key: string; api_secret: string } | null) =>
    session.signedInPage(pathname, credential);

  test('signs in from the #key= link, removes it from the address and keeps it for the browser', async () => {
    const page = await newPage();
    await page.goto(signInLink);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the credential is no longer in the address bar');
    // The first screen is chosen once the server says whether it runs a demo (Shell.tsx).
    await page.waitForURL((url) => url.pathname === '/tasks');
    const stored = await page.evaluate(() => localStorage.getItem('qr-sandbox.credential'));
    assert.equal(stored, `${server.credentials?.api_key}:${server.credentials?.api_secret}`);
    const cookies = await page.context().cookies();
    assert.deepEqual(cookies, [], 'no cookies');
    await page.reload();
    await page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
    assert.equal(await page.getByText('My Organization', { exact: true }).count(), 1);
  });

  test('signs in with the form, refuses a wrong key in plain words, and signs out', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/settings`);
    const field = page.getByLabel('API key and secret');
    await field.fill(`${server.credentials?.api_key}:wrong-secret`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /not accepted/);
    assert.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0);

    await field.fill('this is not a key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'joined by a colon' }).waitFor();

    // The whole sign-in link pasted into the form works too.
    await field.fill(signInLink);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('qr-sandbox.credential')), null);
  });

  test('live updates come back after the server restarts, with a fresh token', async () => {
    const dataDir = tempDataDir();
    const first = await startServer({ dataDir, port: 0, logLevel: 'warn' });
    let second: RunningServer | undefined;
    try {
      const c = first.credentials;
      assert.ok(c);
      const task = makeTask(c.organization_uuid, { status: 'PROCESSING', progress: 5, results: null });
      await seedTasks(first.ctx.db.kysely, [task]);
      const page = await newPage();
      await page.goto(`${first.url}/tasks/${task.uuid}#key=${c.api_key}:${c.api_secret}`);
      await waitForLive(page);
      let tokens = 0;
      page.on('request', (request) => {
        if (request.url().endsWith('/api/live/tokens')) tokens += 1;
      });
      await first.close();
      await page.getByRole('status', { name: 'Live updates' }).filter({ hasText: 'Reconnecting' }).waitFor();
      second = await startServer({ dataDir, port: first.port, logLevel: 'warn' });
      await waitForLive(page);
      assert.ok(tokens >= 1, 'a new live token was fetched');
      // The reconnect reloads every query, and that answer (the stored 5) may land after one event:
      // the event is published until the page shows it, which only the live stream can make it do.
      const shown = page.locator('[role=progressbar][aria-label="Task progress"][aria-valuenow="64"]');
      const deadline = Date.now() + 30_000;
      for (;;) {
        second.ctx.live.publish({ type: 'task.progress', organization_uuid: c.organization_uuid, data: { ...task, progress: 64 } });
        try {
          await shown.waitFor({ timeout: 1_000 });
          break;
        } catch (error) {
          if (Date.now() > deadline) throw error;
        }
      }
    } finally {
      await first.close();
      await second?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('a wrong key in the link brings the form with a plain message', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/#key=qrs_000000000000000000000000:nope`);
    await page.getByRole('alert').filter({ hasText: 'not accepted' }).waitFor();
    assert.equal(new URL(page.url()).hash, '');
  });

  test('task list: filters, pages and live progress', async () => {
    const org = server.organizationUuid;
    const base = Date.parse('2026-03-01T10:00:00.000Z');
    const at = (i: number) => new Date(base + i * 60_000).toISOString();
    const completed = Array.from({ length: 21 }, (_, i) =>
      makeTask(org, { created_on: at(i), updated_on: at(i), metadata: { filename: `batch-${i}.csv` } }),
    );
    const failed = makeTask(org, {
      task_type: 'APPOINTMENT_IMPORT',
      status: 'FAILED',
      progress: 20,
      results: null,
      error_message: 'The file is not a valid XLSX workbook.',
      created_on: at(30),
      updated_on: at(30),
    });
    const running = makeTask(org, {
      status: 'PROCESSING',
      progress: 10,
      results: null,
      created_on: at(40),
      updated_on: at(40),
      metadata: { filename: 'live.csv' },
    });
    await seedTasks(server.ctx.db.kysely, [...completed, failed, running]);

    const page = await signedInPage('/tasks');
    const table = page.getByRole('table', { name: 'Background tasks' });
    await table.waitFor();
    assert.equal(await table.locator('tbody tr').count(), 10);
    assert.equal(
      await page
        .getByRole('status')
        .filter({ hasText: /of 23 tasks/ })
        .count(),
      1,
    );
    await page.getByText('1–10 of 23 tasks').waitFor();

    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('11–20 of 23 tasks').waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('21–23 of 23 tasks').waitFor();
    assert.equal(await table.locator('tbody tr').count(), 3);
    assert.equal(new URL(page.url()).searchParams.get('page'), '3');
    assert.equal(await page.getByRole('button', { name: 'Next page' }).isDisabled(), true);

    await page.getByLabel('Status', { exact: true }).selectOption('FAILED');
    await page.getByText('1–1 of 1 task').waitFor();
    await table.getByText('The file is not a valid XLSX workbook.').waitFor();
    await page.getByLabel('Task type', { exact: true }).selectOption('IMPORT');
    await page.getByText('No tasks match these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.getByText('1–10 of 23 tasks').waitFor();

    const bar = page.getByRole('progressbar', { name: `Progress of task ${running.uuid}` });
    assert.equal(await bar.getAttribute('aria-valuenow'), '10');
    await waitForLive(page);
    // Stored, then published as stored, by the task runtime's own moves: a list reload racing the event shows 55 too.
    const tasks = taskUpdates(server.ctx.db);
    assert.ok(tasks.setProgress(running.uuid, 55));
    server.ctx.live.publish({ type: 'task.progress', organization_uuid: org, data: tasks.read(running.uuid) });
    await page.locator(`[role=progressbar][aria-label="Progress of task ${running.uuid}"][aria-valuenow="55"]`).waitFor();
    // Another organization's event never reaches this page.
    server.ctx.live.publish({ type: 'task.progress', organization_uuid: 'another-org', data: { ...running, progress: 99 } });
    assert.ok(tasks.complete(running.uuid, { inserted: 7, excluded: 0, excluded_data: [] }));
    server.ctx.live.publish({ type: 'task.finished', organization_uuid: org, data: tasks.read(running.uuid) });
    const row = table.locator(`tr[data-task-uuid="${running.uuid}"]`);
    await row.getByText('Completed').waitFor();
    await row.getByText('7 inserted, 0 excluded').waitFor();
    assert.equal(await bar.getAttribute('aria-valuenow'), '100');

    // A task started after the page loaded shows up at the top of the first page.
    const started = makeTask(org, {
      status: 'PROCESSING',
      progress: 3,
      results: null,
      created_on: at(50),
      updated_on: at(50),
      metadata: { filename: 'new.csv' },
    });
    await seedTasks(server.ctx.db.kysely, [started]);
    server.ctx.live.publish({ type: 'task.progress', organization_uuid: org, data: started });
    await table.locator(`tbody tr:first-child[data-task-uuid="${started.uuid}"]`).waitFor();
    await page.getByText('1–10 of 24 tasks').waitFor();
  });

  test('task page: 12,000 excluded rows stay windowed while scrolling and filtering', async () => {
    const org = server.organizationUuid;
    const rows = excludedData(12_000);
    const task = makeTask(org, {
      results: { inserted: 500, excluded: rows.length, excluded_data: rows },
      metadata: { filename: 'big.csv' },
    });
    await seedTasks(server.ctx.db.kysely, [task]);

    const page = await signedInPage(`/tasks/${task.uuid}`);
    const table = page.getByRole('grid', { name: 'Excluded rows' });
    await table.waitFor();
    assert.equal(await table.getAttribute('aria-rowcount'), String(rows.length + 1));
    const rendered = () => table.getByRole('row').count();
    assert.ok((await rendered()) < 80, `only the visible rows are in the page (found ${await rendered()})`);
    await page.getByText('12,000 rows', { exact: true }).waitFor();
    assert.equal(await page.getByText('12,000', { exact: true }).count(), 1, 'the excluded count');

    await table.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const last = rows.at(-1);
    assert.ok(last);
    const lastRow = table.locator(`tr[aria-rowindex="${rows.length + 1}"]`);
    await lastRow.waitFor();
    const cells = await lastRow.getByRole('gridcell').allInnerTexts();
    assert.deepEqual(cells.slice(0, 2), [String(last.row_number), last.error], 'row number (the index is in its tooltip), reason');
    assert.equal(cells[2], last.row.location || '(empty)', 'the empty location the reason is about is marked');
    assert.ok((await rendered()) < 80, 'still windowed at the bottom');

    await lastRow.click();
    const details = page.getByRole('region', { name: `Excluded row ${last.row_number}` });
    await details.getByText(last.error).waitFor();
    assert.equal(await details.getByText(last.row.address_line_1 ?? '?', { exact: true }).count(), 1);

    // Keyboard: Home then Enter opens the first row.
    await table.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    const first = rows[0];
    assert.ok(first);
    await page.getByRole('region', { name: `Excluded row ${first.row_number}` }).waitFor();
    assert.ok((await rendered()) < 80, 'back at the top, still windowed');

    await page.getByLabel('Find in excluded rows').fill('could not be located');
    await page.getByText('4,000 of 12,000 rows match').waitFor();
    assert.ok((await rendered()) < 80);

    await page.getByRole('button', { name: 'Download error report' }).waitFor();
    await page.getByRole('heading', { name: 'Details' }).waitFor();
    await page.getByText(task.task_id, { exact: true }).waitFor();
  });

  test('task page of an unknown task says so in plain words', async () => {
    const page = await signedInPage('/tasks/0b6c9f2e-1111-4c1a-9c8e-2d7a1c3b4e5f');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Not found\..*0b6c9f2e-1111-4c1a-9c8e-2d7a1c3b4e5f/s);
  });

  test('API keys: create with role and name, secret shown once, curl masked, revoke', async () => {
    const page = await signedInPage('/settings');
    await page.getByRole('table', { name: 'API keys' }).waitFor();

    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.locator('#key-name-problem').filter({ hasText: 'Give the key a name' }).waitFor();
    assert.equal(await page.getByLabel('Name').getAttribute('aria-invalid'), 'true');

    await page.getByLabel('Name').fill('CI import job');
    await page.getByLabel('Role').selectOption('viewer');
    // The Settings page has more forms (webhook delivery settings): this one creates API keys.
    const keyForm = page.getByRole('form', { name: 'Create an API key' });
    const curl = keyForm.getByText('Show curl');
    await curl.click();
    const command = keyForm.getByLabel('curl command');
    const masked = await command.innerText();
    assert.match(masked, /-X POST '.*\/api\/api-keys'/);
    assert.match(masked, /<api_secret>/);
    assert.ok(!masked.includes(server.credentials?.api_secret ?? '?'), 'the secret is masked');
    assert.match(masked, /"name":"CI import job","role":"viewer"/);
    await keyForm.getByLabel('Show the secret').check();
    assert.ok((await command.innerText()).includes(server.credentials?.api_secret ?? '?'), 'revealed on request');

    await page.getByRole('button', { name: 'Create API key' }).click();
    const panel = page.getByRole('region', { name: /API key “CI import job” created/ });
    await panel.waitFor();
    const credential = await panel.getByLabel('Key and secret').inputValue();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await panel.getByRole('button', { name: 'Copy key and secret' }).click();
    await panel.getByText('✓ Copied').waitFor();
    assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), credential);
    const [apiKey, apiSecret] = credential.split(':');
    assert.ok(apiKey && apiSecret);
    const session = await fetch(`${server.url}/api/session`, {
      headers: { authorization: bearer({ api_key: apiKey, api_secret: apiSecret }) },
    });
    assert.equal(session.status, 200);
    assert.equal(((await session.json()) as { role: string }).role, 'viewer');

    await panel.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('region', { name: /created/ }).waitFor({ state: 'detached' });
    const keys = page.getByRole('table', { name: 'API keys' });
    await keys.getByRole('cell', { name: apiKey }).waitFor();

    // A second tab signed in with the new key is signed out once the key is revoked.
    const other = await newPage();
    await other.goto(`${server.url}/tasks#key=${credential}`);
    await other.getByRole('navigation', { name: 'Main' }).waitFor();

    await page.getByRole('button', { name: 'Revoke CI import job' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “CI import job”?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('API key “CI import job” was revoked.').waitFor();
    await keys.getByRole('cell', { name: apiKey }).waitFor({ state: 'detached' });
    const revoked = await fetch(`${server.url}/api/session`, {
      headers: { authorization: bearer({ api_key: apiKey, api_secret: apiSecret }) },
    });
    assert.equal(revoked.status, 401);

    await other.getByRole('button', { name: 'Refresh' }).click();
    const notice = other.getByRole('alert').filter({ hasText: 'You were signed out' });
    await notice.waitFor();
    await other.getByRole('button', { name: 'Sign in' }).waitFor();

    // An API error appears in plain words where it happened: the key was revoked elsewhere meanwhile.
    const gone = await server.request('/api/api-keys', jsonBody({ role: 'editor', name: 'Old script' }));
    const goneKey = ((await gone.json()) as { api_key: string }).api_key;
    await page.reload();
    await page.getByRole('button', { name: 'Revoke Old script' }).click();
    assert.equal((await server.request(`/api/api-keys/${goneKey}`, { method: 'DELETE' })).status, 204);
    const goneDialog = page.getByRole('dialog', { name: 'Revoke “Old script”?' });
    await goneDialog.getByRole('button', { name: 'Revoke key' }).click();
    const goneAlert = goneDialog.getByRole('alert');
    await goneAlert.waitFor();
    assert.match(await goneAlert.innerText(), new RegExp(`Not found\\. API key ${goneKey} not found`));
    await goneDialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    const mine = page.getByRole('button', { name: 'Revoke My Organization admin' });
    assert.equal(await mine.isDisabled(), true, 'the key in use cannot be revoked from here');
  });

  test('every page has a heading, the navigation reaches it, and 800x600 works', async () => {
    const page = await newPage({ width: 800, height: 600 });
    await page.goto(signInLink);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    for (const [label, heading] of [
      ['Imports', 'Imports'],
      ['Tasks', 'Tasks'],
      ['QR codes', 'QR codes'],
      ['Appointments', 'Appointments'],
      ['Webhooks', 'Webhooks'],
      ['Inspector', 'Inspector'],
      ['Decrypt', 'Decrypt'],
      ['Settings', 'Settings'],
    ]) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      const current = page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]');
      assert.equal(await current.innerText(), label);
    }
    await page.goBack();
    await page.getByRole('heading', { name: 'Decrypt', level: 1 }).waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    assert.equal(overflow, 0, 'no sideways scrolling at 800 px');

    // Keyboard: Tab from the top reaches the skip link, then the navigation; Enter follows a link.
    await page.reload();
    await page.getByRole('heading', { name: 'Decrypt', level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate<string>('document.activeElement?.textContent'), 'Skip to content');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate<string>('document.activeElement?.textContent'), 'Imports');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
  });

  test('the API and unknown API paths stay JSON next to the GUI', async () => {
    const res = await fetch(`${server.url}/api/nothing`, { headers: { accept: 'text/html' } });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const created = await server.request('/api/api-keys', jsonBody({ role: 'editor', name: 'e2e' }));
    assert.equal(created.status, 201);
  });
});
