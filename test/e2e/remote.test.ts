/**
 * Remote service mode in Debian's Chromium: a second real QR Sandbox stands in for the real
 * service; the GUI reaches it only through the local server's proxy.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { profilesPath } from '../../server/remote/profiles.ts';
import { jsonBody, startTestServer, tempDataDir, type TestServer } from '../support/server.ts';
import { browserUnavailable, chooseCsvFile, locatedAndLostCsv, previewCsvFile } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';
import { suiteServer } from '../support/suite-server.ts';
import { insertTaskRow } from '../support/tasks.ts';
import { downloadErrorReport } from './support/downloads.ts';

const skip = browserUnavailable();

const SITES_CSV = [
  'location,name,type',
  '"1 Mitchell St, Darwin NT 0800",Remote depot,SITE',
  '"2 Hay St, Perth WA 6000",Remote office,bad type!',
  '"1 Nowhere Road, Atlantis ZZ 00000",Remote lost site,SITE',
  '"12 Smith St, Fitzroy VIC 3065",Remote store,SITE',
].join('\r\n');

const credentialOf = (server: TestServer) => {
  const [key = '', secret = ''] = server.auth.slice('Bearer '.length).split(':');
  return { key, secret };
};

describe('Remote service mode in Chromium', { skip: skip ?? false }, () => {
  const { session, server: local } = suiteGuiSession();
  const remote = suiteServer();

  const qrCodes = async (server: TestServer, search: string) => {
    const res = await server.request(
      `/api/qrcodes?organization_uuid=${server.organizationUuid}&per_page=100&search=${encodeURIComponent(search)}`,
    );
    return ((await res.json()) as { items: { name: string }[] }).items.map((q) => q.name).sort();
  };
  const addProfile = async (page: Page, fields: { name: string; url: string; key: string; secret?: string; organization?: string }) => {
    const form = page.getByRole('form', { name: 'Add a connection profile' });
    await form.getByLabel('Name', { exact: true }).fill(fields.name);
    await form.getByLabel('Base URL').fill(fields.url);
    await form.getByLabel('API key', { exact: true }).fill(fields.key);
    if (fields.secret !== undefined) await form.getByLabel('API secret').fill(fields.secret);
    if (fields.organization) await form.getByLabel('organization_uuid (optional)').fill(fields.organization);
    await form.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('table', { name: 'Connection profiles' }).getByRole('row').filter({ hasText: fields.name }).waitFor();
  };

  test('a profile added in the GUI; a CSV checked here, sent to the remote, followed to COMPLETED; excluded rows and error report from the remote', async () => {
    const { key, secret } = credentialOf(remote);
    const page = await session.signedInPage('/imports');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Remote services' }).click();
    await page.getByText('No connection profiles yet').waitFor();
    assert.match(
      await page.getByRole('note', { name: 'Where the secret is kept' }).innerText(),
      /stored unencrypted in .*profiles\.json.*mode 0600/s,
    );

    await addProfile(page, { name: 'staging', url: remote.url, key: `${key}:${secret}`, organization: remote.organizationUuid });
    const row = await page.getByRole('table', { name: 'Connection profiles' }).getByRole('row').filter({ hasText: 'staging' }).innerText();
    assert.ok(row.includes(remote.url) && row.includes(key) && row.includes(remote.organizationUuid), row);
    assert.ok(!(await page.content()).includes(secret), 'the secret is never shown back');
    assert.equal(fs.statSync(profilesPath(local.dataDir)).mode & 0o777, 0o600);
    assert.ok(fs.readFileSync(profilesPath(local.dataDir), 'utf8').includes(secret), 'the pasted key:secret was split and saved');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Imports' }).click();
    await chooseCsvFile(page, 'remote-sites.csv', SITES_CSV);
    const preview = page.getByRole('table', { name: 'First rows of the file' });
    await preview.waitFor();
    assert.equal(
      await preview.getByRole('row').filter({ hasText: 'Will fail' }).count(),
      2,
      'the local check (bad type, address not located) still runs before sending',
    );
    await page.getByRole('radio', { name: /staging/ }).check();
    assert.match(await page.getByText(/Sent with organization_uuid=/).innerText(), new RegExp(remote.organizationUuid));
    await page.getByText(/Show curl for the import/).click();
    const curl = await page.getByLabel('curl command').innerText();
    assert.match(curl, new RegExp(`${local.url}/api/remote/staging/api/qrcodes/bulk`));
    assert.match(curl, new RegExp(`-F 'organization_uuid=${remote.organizationUuid}'`));
    assert.ok(!curl.includes(secret));

    await page.getByRole('button', { name: 'Send to staging' }).click();
    await page.getByRole('heading', { name: 'Import finished on staging' }).waitFor({ timeout: 60_000 });
    await page.locator('[role=progressbar][aria-label="Import progress"][aria-valuenow="100"]').waitFor();
    const counts = await page.getByRole('list', { name: 'Import counts' }).innerText();
    assert.match(counts, /2\s+inserted/i);
    assert.match(counts, /2\s+excluded/i);
    const excluded = await page.getByRole('grid', { name: 'Excluded rows' }).innerText();
    assert.match(excluded, /type: must be a word such as SITE/);
    assert.match(excluded, /1 Nowhere Road, Atlantis ZZ 00000/);

    const report = await downloadErrorReport(page);
    assert.deepEqual(report[0], ['location', 'name', 'type', 'row_number', 'error']);
    assert.deepEqual(
      report
        .slice(1)
        .map((r) => r[1])
        .sort(),
      ['Remote lost site', 'Remote office'],
    );

    // The rows are on the remote service, not in this sandbox.
    assert.deepEqual(await qrCodes(remote, 'Remote'), ['Remote depot', 'Remote store']);
    assert.deepEqual(await qrCodes(local, 'Remote'), []);
    const remoteTasks = (await (await remote.request(`/api/background-tasks?organization_uuid=${remote.organizationUuid}`)).json()) as {
      items: { uuid: string }[];
    };
    const localTasks = (await (await local.request(`/api/background-tasks?organization_uuid=${local.organizationUuid}`)).json()) as {
      total: number;
    };
    assert.equal(remoteTasks.items.length, 1);
    assert.equal(localTasks.total, 0);
    const taskUuid = remoteTasks.items[0]?.uuid ?? '';

    // The remote task page is an address: a reload keeps it.
    await page.getByRole('link', { name: 'Remote task page' }).click();
    await page.waitForURL(`**/remote/staging/tasks/${taskUuid}`);
    await page.reload();
    await page.getByRole('heading', { name: 'QR code file import on staging', level: 1 }).waitFor();
    await page.getByRole('grid', { name: 'Excluded rows' }).waitFor();
    assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /2\s+inserted/i);

    await page.getByRole('link', { name: '← Tasks on staging' }).click();
    const list = page.getByRole('table', { name: 'Background tasks on staging' });
    await list.waitFor();
    assert.match(await list.innerText(), /remote-sites\.csv[\s\S]*2 inserted, 2 excluded/);
  });

  test('a sync import to the remote shows its result like a local sync import', async () => {
    const page = await session.signedInPage('/imports');
    await previewCsvFile(page, 'sync.csv', locatedAndLostCsv('7 Knuckey St, Darwin NT 0800', 'Remote sync office', 'Remote sync lost'));
    await page.getByRole('radio', { name: /staging/ }).check();
    await page.getByRole('radio', { name: /Sync/ }).check();
    await page.getByRole('button', { name: 'Send to staging (sync)' }).click();
    await page.getByRole('heading', { name: 'Import finished on staging' }).waitFor({ timeout: 60_000 });
    assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /1\s+inserted/i);
    assert.match(await page.getByRole('grid', { name: 'Excluded rows' }).innerText(), /1 Nowhere Road, Atlantis ZZ 00000/);
    await page.getByRole('button', { name: 'Download error report' }).waitFor();
    assert.deepEqual(await qrCodes(remote, 'Remote sync'), ['Remote sync office']);
    assert.deepEqual(await qrCodes(local, 'Remote sync'), []);
  });

  test('a service that answers a sync import without naming a task: counts and excluded rows from its answer; a QR JSON file goes as a JSON array', async () => {
    const received: { method: string; url: string; type: string; auth: string; body: string }[] = [];
    // Stands in for a deployment of the real service, which need not send QR Sandbox's X-Background-Task-Uuid.
    const service = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({
          method: req.method ?? '',
          url: req.url ?? '',
          type: req.headers['content-type'] ?? '',
          auth: req.headers.authorization ?? '',
          body,
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            inserted: 1,
            excluded: 1,
            excluded_data: [{ index: 1, error: 'location is required', row: { location: '', suburb: 'Darwin' } }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    try {
      await local.request(
        '/api/profiles/real',
        jsonBody({ base_url: url, api_key: 'svc_key', api_secret: 'svc_secret', organization_uuid: 'org-real' }, 'PUT'),
      );
      const page = await session.signedInPage('/imports');
      const records = [
        { location: '1 Mitchell St, Darwin NT 0800', name: 'JSON depot', organization_uuid: 'org-real' },
        { location: '', name: 'No address', organization_uuid: 'org-real' },
      ];
      await page
        .locator('input[type=file]')
        .first()
        .setInputFiles({ name: 'sites.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(records)) });
      await page.getByRole('table', { name: 'First rows of the file' }).waitFor();
      await page.getByRole('radio', { name: /^real/ }).check();
      await page.getByRole('radio', { name: /Sync/ }).check();
      await page.getByText(/Show curl for the import/).click();
      assert.match(
        await page.getByLabel('curl command').innerText(),
        /\/api\/remote\/real\/api\/qrcodes\/bulk\?processing_mode=sync'[\s\S]*--data-binary '@sites\.json'/,
      );
      await page.getByRole('button', { name: 'Send to real (sync)' }).click();
      await page.getByRole('heading', { name: 'Import finished on real' }).waitFor();
      assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /1\s+inserted[\s\S]*1\s+excluded/i);
      const grid = await page.getByRole('grid', { name: 'Excluded rows' }).innerText();
      assert.match(grid, /location is required/);
      assert.match(grid, /\(1\)\s+location is required/, 'the service gave only the index (1): shown as an index, not guessed as a row');
      await page.getByText(/did not name a background task, so there is no error report/).waitFor();

      assert.equal(received.length, 1);
      assert.deepEqual(
        received.map((r) => [r.method, r.url, r.type, r.auth]),
        [['POST', '/api/qrcodes/bulk?processing_mode=sync', 'application/json', 'Bearer svc_key:svc_secret']],
      );
      assert.deepEqual(JSON.parse(received[0]?.body ?? ''), records, 'the file as it is');
    } finally {
      service.close();
    }
  });

  test('a wrong secret is shown in plain words, and nothing arrives on the remote', async () => {
    const { key } = credentialOf(remote);
    const page = await session.signedInPage('/remote');
    await addProfile(page, { name: 'wrong-secret', url: remote.url, key, secret: 'not-the-secret', organization: remote.organizationUuid });
    await page.getByRole('link', { name: 'Tasks on wrong-secret' }).click();
    const listAlert = page.getByRole('alert').filter({ hasText: 'rejected the API key or secret (401)' });
    await listAlert.waitFor();
    assert.match(await listAlert.innerText(), /Problem with the remote service\. .* Check the profile's credential\./);

    await page.goto(`${local.url}/imports`);
    await previewCsvFile(page, 'wrong.csv', 'location,name\r\n"1 Mitchell St, Darwin NT 0800",Never sent\r\n');
    await page.getByRole('radio', { name: /wrong-secret/ }).check();
    await page.getByRole('button', { name: 'Send to wrong-secret' }).click();
    await page.getByRole('alert').filter({ hasText: 'rejected the API key or secret (401)' }).waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Main' }).isVisible(), true, "the remote's refusal does not sign this GUI out");
    assert.deepEqual(await qrCodes(remote, 'Never sent'), []);
  });

  test('a stopped remote, and a missing profile, are said in plain words', async () => {
    const gone = await startTestServer();
    await gone.stop();
    assert.equal(
      (
        await local.request(
          '/api/profiles/gone',
          jsonBody({ base_url: gone.url, api_key: 'k', api_secret: 's', organization_uuid: 'org' }, 'PUT'),
        )
      ).status,
      200,
    );
    const page = await session.signedInPage('/remote/gone');
    await page.getByRole('alert').filter({ hasText: 'nothing is listening there (connection refused)' }).waitFor();

    await page.goto(`${local.url}/remote/gone/tasks/some-task`);
    const alert = page.getByRole('alert').filter({ hasText: 'nothing is listening there (connection refused)' });
    await alert.waitFor();
    assert.match(
      await alert.innerText(),
      /Could not reach http:\/\/127\.0\.0\.1:\d+: nothing is listening there \(connection refused\)\. Is the service running\?/,
    );
    await alert.getByRole('button', { name: 'Try again' }).waitFor();

    await page.goto(`${local.url}/remote/nobody/tasks/some-task`);
    await page.getByRole('alert').filter({ hasText: 'There is no connection profile named "nobody"' }).waitFor();
  });

  test('a remote that stops while a task runs: backs off 5/10/20/30 s, gives up after 8 failures and says so; Try again picks the task up when it is back', async () => {
    const dataDir = tempDataDir();
    let flaky = await startTestServer({ dataDir });
    const port = Number(new URL(flaky.url).port);
    const { key, secret } = credentialOf(flaky);
    await insertTaskRow(flaky, 'long-task', { progress: 40, metadata: { filename: 'big.csv' } });
    await local.request('/api/profiles/flaky', jsonBody({ base_url: flaky.url, api_key: key, api_secret: secret }, 'PUT'));
    try {
      const page = await session.newPage();
      // The page's timers run on a clock the test moves, so the waits of minutes take none.
      await page.clock.install();
      const c = local.credentials;
      assert.ok(c);
      await page.goto(`${local.url}/remote/flaky/tasks/long-task#key=${c.api_key}:${c.api_secret}`);
      await page.getByText(/Last checked at .*; checked every 2 to 5 s until it ends\./).waitFor();
      await page.locator('[role=progressbar][aria-label="Import progress"][aria-valuenow="40"]').waitFor();

      await flaky.stop();
      await page.clock.runFor(2_000);
      const waits = ['5 s', '10 s', '20 s', '30 s', '30 s', '30 s', '30 s'];
      for (const [i, wait] of waits.entries()) {
        await page.getByText(`Check ${i + 1} of 8 failed; trying again in ${wait}.`).waitFor();
        await page.getByRole('alert').filter({ hasText: 'connection refused' }).waitFor();
        await page.clock.runFor(30_000);
      }
      const gaveUp = page.getByRole('alert').filter({ hasText: 'Stopped checking the task after 8 failed attempts in a row.' });
      await gaveUp.waitFor();
      assert.match(await gaveUp.innerText(), /nothing is listening there \(connection refused\)[\s\S]*The task itself goes on at flaky/);

      flaky = await startTestServer({ dataDir, port });
      await flaky.ctx.db.kysely
        .updateTable('background_tasks')
        .set({
          status: 'COMPLETED',
          progress: 100,
          results: JSON.stringify({ inserted: 9, excluded: 0, excluded_data: [] }),
          updated_on: new Date().toISOString(),
        })
        .where('uuid', '=', 'long-task')
        .execute();
      await gaveUp.getByRole('button', { name: 'Try again' }).click();
      await page.getByText('No row was excluded: every row was imported on flaky.').waitFor();
      assert.equal(await page.getByRole('alert').count(), 0, 'the failure notice is gone once the remote answers');
      assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /9\s+inserted/i);
    } finally {
      await flaky.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
