/**
 * Issue 17 (points 1, 2, 4, 5, 10) in Debian's Chromium against real servers: a task started
 * by plain HTTP shows up live in the Tasks list with its progress; the session is the browser's
 * (deep links in new tabs are signed in, sign-out ends it everywhere); an import's file is not
 * offered for sending twice; task rows say what, when (to the second), by whom and how it went,
 * and the whole row is a link; a field left empty is named in a sentence.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GATE_AFTER_ENV, GATE_ENV, GATED_GEOCODER_MODULE } from '../demo/support/gated-geocoder.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { browserUnavailable, chooseCsvFileThrough, locatedAndLostCsv, previewCsvFile } from './support/browser.ts';
import { makeTask, seedTasks } from './support/seed.ts';
import { suiteGuiSession, waitForLive } from './support/session.ts';

const skip = browserUnavailable();

/** Polls `check` until it holds (no timed assertion: the overall limit is only there to end a stuck test). */
async function until(what: string, check: () => Promise<boolean>, limitMs = 120_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Rows the import commits in its first batch (the engine's BATCH_ROWS) before the gated geocoder holds it. */
const FIRST_BATCH = 5000;
const LIVE_RECORDS = 12_000;
const ADDRESSES = [
  '1 Mitchell St, Darwin NT 0800',
  '2 Hay St, Perth WA 6000',
  '12 Smith St, Fitzroy VIC 3065',
  '5 Mitchell St, Darwin NT 0800',
];

describe('A working day in the GUI (issue 17)', { skip: skip ?? false }, () => {
  /** A second server whose import workers hold after their first batch until the gate file exists. */
  let gated: TestServer;
  let gate: string;
  // Registered before the GUI session's hooks so it runs before the session closes: the gate lives in that server's data dir.
  after(async () => {
    if (gate) fs.writeFileSync(gate, '');
    await gated?.stop();
    delete process.env[GATE_ENV];
    delete process.env[GATE_AFTER_ENV];
  });
  const { session, server } = suiteGuiSession();

  before(async () => {
    gate = path.join(fs.mkdtempSync(path.join(server.dataDir, 'gate-')), 'open');
    process.env[GATE_ENV] = gate;
    process.env[GATE_AFTER_ENV] = String(FIRST_BATCH);
    gated = await startTestServer({ imports: { geocoderModule: GATED_GEOCODER_MODULE, workers: 1 } });
  });

  const signInLink = (target: TestServer, pathname: string) =>
    `${target.url}${pathname}#key=${target.credentials?.api_key}:${target.credentials?.api_secret}`;

  test('a task started with plain HTTP (not the GUI) appears in the open Tasks list by live update, with its progress', async (t) => {
    const page = await session.newPage();
    await page.goto(signInLink(gated, '/tasks'));
    await page.getByText('No background tasks yet').waitFor();
    await waitForLive(page);
    let listLoads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/background-tasks') listLoads += 1;
    });
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });

    const records = Array.from({ length: LIVE_RECORDS }, (_, i) => ({
      organization_uuid: gated.organizationUuid,
      location: ADDRESSES[i % ADDRESSES.length],
      name: `Live site ${String(i).padStart(5, '0')}`,
      type: 'SITE',
    }));
    const sentAt = Date.now();
    const answer = await gated.request('/api/qrcodes/bulk', jsonBody(records));
    assert.equal(answer.status, 202);
    const { background_task_uuid: uuid } = (await answer.json()) as { background_task_uuid: string };

    const row = page.locator(`tr[data-task-uuid="${uuid}"]`);
    await row.waitFor({ timeout: 60_000 });
    t.diagnostic(`the task's row appeared ${Date.now() - sentAt} ms after the request was sent (request and upload included)`);
    // The worker committed its first batch and is held: the row shows a progress between 0 and 100.
    const bar = page.getByRole('progressbar', { name: `Progress of task ${uuid}` });
    await until('a progress between 0 and 100', async () => {
      const value = Number(await bar.getAttribute('aria-valuenow'));
      return value > 0 && value < 100;
    });
    const running = await row.innerText();
    assert.match(running, /Processing/);
    assert.match(running, /QR code import \(JSON\)/);
    assert.match(running, /JSON body/);
    assert.match(running, /by My Organization admin \(admin\)/, 'who started it');
    assert.equal(listLoads, 0, 'the list was not fetched again: the row came from live events');
    assert.equal(navigations, 0, 'the page was not reloaded');
    assert.equal(await page.getByRole('status', { name: 'Live updates' }).innerText(), 'Live updates on');

    fs.writeFileSync(gate, '');
    await row.getByText('Completed').waitFor({ timeout: 180_000 });
    const done = await row.innerText();
    assert.match(done, /12,000 inserted, 0 excluded/);
    assert.match(done, /JSON body, 12,000 records/);
    assert.equal(await page.getByRole('progressbar', { name: `Progress of task ${uuid}` }).getAttribute('aria-valuenow'), '100');
    assert.equal(listLoads, 0, 'still no list fetch: progress and end came live too');
    assert.equal(navigations, 0);
  });

  test("the session is the browser's: a deep link in a new tab is signed in; sign-out in one tab signs out the others", async () => {
    const task = makeTask(server.organizationUuid, { metadata: { filename: 'deep-link.csv', import_type: 'csv', source: 'file_upload' } });
    await seedTasks(server.ctx.db.kysely, [task]);
    const first = await session.signedInPage('/tasks');
    const context = first.context();

    const second = await context.newPage();
    await second.goto(`${server.url}/tasks/${task.uuid}`);
    await second.getByRole('heading', { name: 'QR code file import', level: 1 }).waitFor();
    assert.match(await second.getByText(`Task ${task.uuid}`).innerText(), /deep-link\.csv/);
    await second.reload();
    await second.getByRole('heading', { name: 'QR code file import', level: 1 }).waitFor();
    assert.deepEqual(await context.cookies(), [], 'no cookie: the API takes only the Authorization header');

    await second.getByRole('button', { name: 'Sign out' }).click();
    await second.getByRole('button', { name: 'Sign in' }).waitFor();
    await first.getByRole('button', { name: 'Sign in' }).waitFor();
    await first.getByText('You signed out in another tab or window.').waitFor();
    assert.equal(await first.getByRole('navigation', { name: 'Main' }).count(), 0);
    assert.equal(await first.evaluate(() => localStorage.getItem('qr-sandbox.credential')), null);

    const third = await context.newPage();
    await third.goto(`${server.url}/tasks/${task.uuid}`);
    await third.getByRole('button', { name: 'Sign in' }).waitFor();

    // Signing in again in one tab signs the others back in.
    await third.getByLabel('API key and secret').fill(`${server.credentials?.api_key}:${server.credentials?.api_secret}`);
    await third.getByRole('button', { name: 'Sign in' }).click();
    await third.getByRole('heading', { name: 'QR code file import', level: 1 }).waitFor();
    await first.getByRole('navigation', { name: 'Main' }).waitFor();
    await second.getByRole('navigation', { name: 'Main' }).waitFor();

    // A link with a wrong key opened in another tab does not sign the others out.
    await second.goto(`${server.url}/#key=${server.credentials?.api_key}:wrong`);
    await second.getByRole('alert').filter({ hasText: 'not accepted' }).waitFor();
    await first.reload();
    await first.getByRole('navigation', { name: 'Main' }).waitFor();
    for (const page of [second, third]) await page.close();
  });

  const tasksNamed = async (filename: string) => {
    const res = await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}&per_page=100`);
    return ((await res.json()) as { items: { metadata: { filename?: string } | null }[] }).items.filter(
      (task) => task.metadata?.filename === filename,
    );
  };

  test('after an import its file is not offered again: "Import another file" and the next steps instead', async () => {
    const page = await session.signedInPage('/imports');
    await previewCsvFile(page, 'once.csv', locatedAndLostCsv('1 Mitchell St, Darwin NT 0800', 'Once depot', 'Once lost'));
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });

    assert.equal(await page.getByRole('button', { name: 'Start the import' }).count(), 0, 'the same file cannot be sent again by accident');
    assert.equal(await page.getByRole('button', { name: 'Check only' }).count(), 0);
    assert.match(await page.getByRole('status').filter({ hasText: 'was sent' }).innerText(), /once\.csv was sent: its result is below/);
    const steps = page.getByRole('navigation', { name: 'Next steps' });
    const task = await steps.getByRole('link', { name: 'Open the task' }).getAttribute('href');
    assert.match(task ?? '', /^\/tasks\/[0-9a-f-]{36}$/);
    assert.equal(await steps.getByRole('link', { name: 'View the QR codes' }).getAttribute('href'), '/qrcodes');
    await page.getByRole('button', { name: 'Download error report' }).waitFor();
    assert.equal((await tasksNamed('once.csv')).length, 1);

    await chooseCsvFileThrough(page, 'Import another file', 'next.csv', 'location,name\r\n"2 Hay St, Perth WA 6000",Next office\r\n');
    await page.getByText('next.csv').first().waitFor();
    await page.getByRole('table', { name: 'First rows of the file' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Import finished' }).count(), 0, 'the previous result gives way');
    const start = page.getByRole('button', { name: 'Start the import' });
    await start.waitFor();
    assert.equal(await start.isEnabled(), true);
    await start.click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    await steps.getByRole('link', { name: 'View the QR codes' }).click();
    await page.getByRole('heading', { name: 'QR codes', level: 1 }).waitFor();
    assert.equal((await tasksNamed('once.csv')).length, 1, 'the first file was imported once');
    assert.equal((await tasksNamed('next.csv')).length, 1);
  });

  test('task rows: source, time to the second, who started it, counts in words; the whole row is a real link', async () => {
    const org = server.organizationUuid;
    const json = makeTask(org, {
      task_type: 'IMPORT',
      created_on: '2031-05-06T10:20:07.000Z',
      updated_on: '2031-05-06T10:20:09.000Z',
      metadata: { import_type: 'json', source: 'api', api_key_name: 'CI pipeline', api_key_role: 'editor' },
      results: {
        qr_code_inserted: 1,
        qr_code_restored: 0,
        qr_code_tags_created: 0,
        excluded_qr_codes: [],
        qr_code_updated: 0,
        excluded_count: 2,
      },
    });
    const appointments = makeTask(org, {
      task_type: 'APPOINTMENT_IMPORT',
      created_on: '2031-05-06T10:19:58.000Z',
      updated_on: '2031-05-06T10:20:00.000Z',
      metadata: {
        filename: 'week-12.xlsx',
        import_type: 'xlsx',
        source: 'file_upload',
        api_key_name: 'Field admin',
        api_key_role: 'admin',
      },
      results: { upserted: 4, excluded: 1, excluded_appointments: [], inserted: 3, updated: 1, unchanged: 0, tags_created: 2 },
    });
    await seedTasks(server.ctx.db.kysely, [json, appointments]);
    const page = await session.signedInPage('/tasks');
    const row = page.locator(`tr[data-task-uuid="${json.uuid}"]`);
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /:20:07/, 'the time has seconds (whatever the time zone)');
    assert.match(text, /by CI pipeline \(editor\)/);
    assert.match(text, /JSON body, 3 records/);
    assert.match(text, /1 inserted, 2 excluded/);
    assert.doesNotMatch(text, /restored|tags created|qr code inserted/i, 'counts that are zero and beside the point are left out');
    const other = await page.locator(`tr[data-task-uuid="${appointments.uuid}"]`).innerText();
    assert.match(other, /week-12\.xlsx/);
    assert.match(other, /:19:58/);
    assert.match(other, /3 inserted, 1 updated, 1 excluded/);
    assert.doesNotMatch(other, /upserted/);

    const link = row.getByRole('link');
    assert.equal(await link.count(), 1, 'one link per row');
    assert.equal(await link.getAttribute('href'), `/tasks/${json.uuid}`);
    assert.match((await link.getAttribute('aria-label')) ?? '', /QR code import \(JSON\), JSON body, 3 records, started/);

    // The row's link covers every cell (Playwright sees it "intercept" the cell), so a mouse click
    // at a cell's centre lands on the link: force only skips that actionability check.
    // Ctrl+click anywhere in the row opens the task in a new tab, signed in.
    const [opened] = await Promise.all([
      page.context().waitForEvent('page'),
      row
        .locator('td')
        .nth(2)
        .click({ modifiers: ['Control'], force: true }),
    ]);
    await opened.waitForLoadState();
    assert.equal(new URL(opened.url()).pathname, `/tasks/${json.uuid}`);
    await opened.getByRole('heading', { name: 'QR code import (JSON)', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/tasks', 'the list stays open in the first tab');
    await opened.close();

    // A plain click on the results cell opens it here.
    await row.locator('td.results-cell').click({ force: true });
    await page.getByRole('heading', { name: 'QR code import (JSON)', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/tasks/${json.uuid}`);

    // Keyboard: Tab reaches the row's link, Enter opens it.
    await page.goBack();
    await row.waitFor();
    await page.locator(`tr[data-task-uuid="${appointments.uuid}"]`).getByRole('link').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Appointment import', level: 1 }).waitFor();
  });

  test('a required field left empty is named in a sentence, in the form and in the API answer', async () => {
    const page = await session.signedInPage('/qrcodes');
    await page.getByRole('button', { name: 'New QR code' }).click();
    const form = page.getByRole('form', { name: 'New QR code' });
    await form.getByLabel('Name', { exact: true }).fill('No address yet');
    await form.getByRole('button', { name: 'Create QR code' }).click();
    await form.getByText('Location is required.', { exact: true }).waitFor();
    assert.equal(await form.getByText('is required', { exact: true }).count(), 0);

    const res = await server.request('/api/qrcodes', jsonBody({ organization_uuid: server.organizationUuid, location: '' }));
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { message: string; details: { path: string; message: string }[] } };
    assert.equal(body.error.message, 'Invalid request: location is required.');
    assert.deepEqual(body.error.details, [{ path: 'body.location', message: 'is required' }]);

    const missing = await server.request('/api/qrcodes', jsonBody({ location: '1 Mitchell St, Darwin NT 0800' }));
    const answer = (await missing.json()) as { error: { message: string; details: { path: string; message: string }[] } };
    assert.deepEqual(
      answer.error.details,
      [{ path: 'body.organization_uuid', message: 'is required' }],
      'a field left out reads "is required", not zod\'s "received undefined"',
    );
  });
});
