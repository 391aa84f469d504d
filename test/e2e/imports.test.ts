/**
 * The Imports, Task and QR codes pages in Debian's Chromium against a real server with the
 * shipped offline geocoder (real Australian addresses).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import Papa from 'papaparse';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import { browserUnavailable, chooseCsvFile, chooseCsvFileThrough, locatedAndLostCsv, previewCsvFile } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';
import { downloadErrorReport } from './support/downloads.ts';

const skip = browserUnavailable();

const SITES_CSV = [
  'location,name,type',
  '"1 Mitchell St, Darwin NT 0800",Darwin depot,SITE',
  '"2 Hay St, Perth WA 6000",Perth office,bad type!',
  '"1 Nowhere Road, Atlantis ZZ 00000",Lost site,SITE',
  '"12 Smith St, Fitzroy VIC 3065",Fitzroy store,SITE',
].join('\r\n');

describe('Imports and QR codes in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  const signedInPage = (pathname?: string, credential?: { api_key: string; api_secret: string } | null) =>
    session.signedInPage(pathname, credential);

  const qrCodes = async (search: string) => {
    const res = await server.request(
      `/api/qrcodes?organization_uuid=${server.organizationUuid}&per_page=100&search=${encodeURIComponent(search)}`,
    );
    return ((await res.json()) as { items: { name: string; type: string; timezone_name: string | null }[]; total: number }).items;
  };

  test('a CSV import with excluded rows: preview, background progress, excluded rows, error report, then the fixed file', async () => {
    const page = await signedInPage('/imports');
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    await chooseCsvFile(page, 'sites.csv', SITES_CSV);

    const rows = page.getByRole('table', { name: 'First rows of the file' });
    await rows.waitFor();
    const marked = rows.getByRole('row').filter({ hasText: 'Will fail' });
    assert.equal(
      await marked.count(),
      2,
      'the row with a bad type and the row whose address cannot be located, as the import will exclude them',
    );
    assert.match(await rows.getByRole('list', { name: 'Problems of row 3' }).innerText(), /type\s+must be a word such as SITE/);
    assert.ok((await rows.getByRole('list', { name: 'Problems of row 4' }).innerText()).includes(ADDRESS_NOT_LOCATED));
    assert.match(await page.getByRole('status', { name: 'Preview verdict' }).innerText(), /2 of the first 4 rows would be excluded/);

    await page.getByText('Show curl for the import').click();
    assert.match(await page.getByLabel('curl command').innerText(), /-F 'file=@sites\.csv'/);

    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    await page.locator('[role=progressbar][aria-label="Import progress"][aria-valuenow="100"]').waitFor();
    const counts = await page.getByRole('list', { name: 'Import counts' }).innerText();
    assert.match(counts, /2\s+inserted/i);
    assert.match(counts, /2\s+excluded/i);

    const excluded = page.getByRole('grid', { name: 'Excluded rows' }).or(page.getByRole('table', { name: 'Excluded rows' }));
    await excluded.waitFor();
    const excludedText = await excluded.innerText();
    assert.match(excludedText, /type: must be a word such as SITE/);
    assert.ok(excludedText.includes(ADDRESS_NOT_LOCATED), 'the Atlantis row is excluded because it cannot be located');

    const parsed = await downloadErrorReport(page);
    assert.deepEqual(parsed[0], ['location', 'name', 'type', 'row_number', 'error']);
    assert.deepEqual(
      parsed.slice(1).map((r) => [r[1], r[3]]),
      [
        ['Perth office', '3'],
        ['Lost site', '4'],
      ],
    );

    // Fix the two rows in the report itself and import it as it is.
    const fixed = Papa.unparse(
      [
        parsed[0] ?? [],
        ...parsed
          .slice(1)
          .map((r) =>
            r[1] === 'Perth office'
              ? [r[0] ?? '', r[1], 'SITE', r[3] ?? '', r[4] ?? '']
              : ['3 Cavenagh St, Darwin NT 0800', r[1] ?? '', r[2] ?? '', r[3] ?? '', r[4] ?? ''],
          ),
      ],
      { newline: '\r\n' },
    );
    await chooseCsvFileThrough(page, 'Import the fixed file', 'sites-fixed.csv', fixed);
    // The fixed file is previewed like any file, then sent.
    await page.getByRole('status', { name: 'Preview verdict' }).filter({ hasText: 'The first 2 rows pass' }).waitFor();
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByText('No row was excluded: every row was imported.').waitFor({ timeout: 60_000 });
    assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /2\s+inserted/i);
    assert.deepEqual(
      (await qrCodes('Perth office')).map((q) => q.type),
      ['SITE'],
    );
    assert.deepEqual(
      (await qrCodes('Lost site')).map((q) => q.timezone_name),
      ['Australia/Darwin'],
    );
    assert.equal((await qrCodes('')).length, 4, 'only the excluded rows were imported again');
  });

  test('sync mode answers with the result at once; the task page offers the error report and the fixed file', async () => {
    const page = await signedInPage('/imports');
    await previewCsvFile(page, 'one.csv', locatedAndLostCsv('7 Knuckey St, Darwin NT 0800', 'Knuckey office', 'Sync lost'));
    await page.getByRole('radio', { name: /Sync/ }).check();
    assert.match(await page.getByText(/at most 10,000 rows/).innerText(), /use background/);
    await page.getByRole('button', { name: 'Import now (sync)' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /1\s+inserted/i);
    assert.equal((await qrCodes('Knuckey office')).length, 1);

    await page.getByRole('link', { name: 'Task page' }).click();
    await page.getByRole('heading', { name: 'Excluded rows' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download error report' }).click(),
    ]);
    assert.match(fs.readFileSync(await download.path(), 'utf8'), /Sync lost.*,3,/);
    await chooseCsvFileThrough(
      page,
      'Import the fixed file',
      'fixed.csv',
      'location,name,row_number,error\r\n"9 Smith St, Darwin NT 0800",Sync found,3,x\r\n',
    );
    // From the task page too, the fixed file is previewed first (on the Imports page), then sent.
    await page.waitForURL((url) => url.pathname === '/imports');
    await page.getByRole('status').filter({ hasText: 'is the fixed error report of an earlier import' }).waitFor();
    await page.getByRole('status', { name: 'Preview verdict' }).filter({ hasText: 'The first row passes' }).waitFor();
    assert.equal((await qrCodes('Sync found')).length, 0, 'nothing is sent before "Start the import"');
    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByText('No row was excluded: every row was imported.').waitFor({ timeout: 60_000 });
    assert.equal((await qrCodes('Sync found')).length, 1);
  });

  test('"Check only" shows what the import would give, rows to fix included, and imports nothing', async () => {
    const before = await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}`);
    const tasksBefore = ((await before.json()) as { total: number }).total;
    const page = await signedInPage('/imports');
    const checkCsv = [
      'location,name,type',
      '"5 Mitchell St, Darwin NT 0800",Checked depot,SITE',
      '"6 Hay St, Perth WA 6000",Checked office,bad type!',
      '"1 Nowhere Road, Atlantis ZZ 00000",Checked lost site,SITE',
      '"14 Smith St, Fitzroy VIC 3065",Checked store,SITE',
    ].join('\r\n');
    await previewCsvFile(page, 'check-sites.csv', checkCsv);
    await page.getByRole('button', { name: 'Check only' }).click();
    await page.getByRole('heading', { name: 'Check result: nothing was imported' }).waitFor({ timeout: 60_000 });
    const counts = await page.getByRole('list', { name: 'Check counts' }).innerText();
    assert.match(counts, /2\s+inserted/i);
    assert.match(counts, /2\s+excluded/i);
    const excluded = await page.getByRole('grid', { name: 'Excluded rows' }).innerText();
    assert.ok(excluded.includes(ADDRESS_NOT_LOCATED), 'the row that cannot be located is among the rows to fix');
    assert.match(await page.getByText('What this check cannot know about the real service').locator('..').innerText(), /offline gazetteer/);
    await page.getByText('Show curl for the check').click();
    assert.match(await page.getByLabel('curl command').first().innerText(), /-F 'dry_run=true'/);

    assert.equal((await qrCodes('Checked depot')).length, 0, 'nothing was imported');
    const after = await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}`);
    assert.equal(((await after.json()) as { total: number }).total, tasksBefore, 'no task was created');

    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    assert.equal(
      await page.getByRole('heading', { name: 'Check result: nothing was imported' }).count(),
      0,
      'the check result gives way to the import',
    );
    assert.equal((await qrCodes('Checked depot')).length, 1);
  });

  test('a missing required column is shown before sending, and Send stays off', async () => {
    const page = await signedInPage('/imports');
    await chooseCsvFile(page, 'no-location.csv', 'name,suburb\r\nDepot,Darwin\r\n');
    const alert = page.getByRole('alert').filter({ hasText: 'no location column' });
    await alert.waitFor();
    assert.match(await alert.innerText(), /Add this column to the header row/);
    assert.equal(await page.getByRole('button', { name: 'Start the import' }).isDisabled(), true);
    await page.getByRole('radio', { name: 'Appointments' }).check();
    await page
      .getByRole('list', { name: 'Problems of row 2' })
      .getByText(/tag_name/)
      .first()
      .waitFor();
  });

  test('in the desktop app the picker, the File menu and the save dialog go through window.qrSandbox', async () => {
    const gui = { page: await session.newPage() };
    const page = gui.page;
    const c = server.credentials;
    assert.ok(c);
    await page.addInitScript({
      content: `(() => {
        const file = (name, text) => { const data = new TextEncoder().encode(text); return { name, size: data.length, type: 'text/csv', data }; };
        const state = { saved: null, listener: null };
        window.__desktop = state;
        window.__desktopFile = file;
        window.qrSandbox = {
          getConnection: async () => ({ baseUrl: location.origin, apiKey: '${c.api_key}', apiSecret: '${c.api_secret}', organizationUuid: '${c.organization_uuid}' }),
          openImportFile: async () => file('picked.csv', 'location,name\\r\\n"1 Mitchell St, Darwin NT 0800",Picked site\\r\\n'),
          saveFile: async (request) => { state.saved = { name: request.suggestedName, text: typeof request.data === 'string' ? request.data : new TextDecoder().decode(request.data) }; return { path: '/home/me/' + request.suggestedName }; },
          revealInFolder: async () => {},
          appVersion: async () => 'test',
          onImportFile: (listener) => { state.listener = listener; return () => { state.listener = null; }; },
        };
      })();`,
    });
    await page.goto(`${server.url}/imports`);
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Choose a file' }).click();
    await page.getByText('picked.csv').waitFor();
    await page.getByRole('table', { name: 'First rows of the file' }).getByText('Picked site').waitFor();

    await page.evaluate(() => {
      const w = globalThis as unknown as {
        __desktop: { listener: ((f: unknown) => void) | null };
        __desktopFile: (n: string, t: string) => unknown;
      };
      w.__desktop.listener?.(w.__desktopFile('menu.csv', 'location,name\r\n"1 Nowhere Road, Atlantis ZZ 00000",Menu lost\r\n'));
    });
    await page.getByText('menu.csv').waitFor();
    await page.getByRole('table', { name: 'First rows of the file' }).getByText('Menu lost').waitFor();
    await page.getByRole('radio', { name: /Sync/ }).check();
    await page.getByRole('button', { name: 'Import now (sync)' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Download error report' }).click();
    await page.getByText(/^Saved \/home\/me\/qr-import-errors-.*\.csv\.$/).waitFor();
    const saved = (await page.evaluate(
      () => (globalThis as unknown as { __desktop: { saved: { name: string; text: string } | null } }).__desktop.saved,
    )) ?? { name: '', text: '' };
    assert.match(saved.name, /^qr-import-errors-.*\.csv$/);
    assert.match(saved.text, /location,name,row_number,error/);
    assert.match(saved.text, /Menu lost,2,"Address could not be located/);
  });

  test('QR codes: create, edit with an address that cannot be located, delete', async () => {
    const page = await signedInPage('/qrcodes');
    await page.getByRole('button', { name: 'New QR code' }).click();
    const form = page.getByRole('form', { name: 'New QR code' });
    await form.getByLabel('Address (location)').fill('1 Mitchell St, Darwin NT 0800');
    await form.getByLabel('Name', { exact: true }).fill('Mitchell gate');
    await form.getByLabel('External reference').fill('E2E-1');
    await form.getByRole('button', { name: 'Create QR code' }).click();
    const row = page.getByRole('table', { name: 'QR codes' }).getByRole('row').filter({ hasText: 'Mitchell gate' });
    await row.waitFor();
    assert.match(await row.innerText(), /Australia\/Darwin/);
    assert.match(await row.innerText(), /0800/);

    await page.getByRole('button', { name: 'Edit Mitchell gate' }).click();
    const edit = page.getByRole('form', { name: 'Edit Mitchell gate' });
    await edit.getByLabel('Address (location)').fill('1 Nowhere Road, Atlantis ZZ 00000');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    const problem = edit.locator('.field-problem');
    await problem.waitFor();
    assert.equal(await problem.innerText(), ADDRESS_NOT_LOCATED);
    assert.equal(await edit.getByLabel('Address (location)').getAttribute('aria-invalid'), 'true');

    await edit.getByLabel('Address (location)').fill('1 Mitchell St, Darwin NT 0800');
    await edit.getByLabel('Name', { exact: true }).fill('Mitchell front gate');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('table', { name: 'QR codes' }).getByRole('row').filter({ hasText: 'Mitchell front gate' }).waitFor();

    await page.getByLabel('Search').fill('front gate');
    await page
      .getByRole('status')
      .filter({ hasText: /1 of 1 QR code|1–1 of 1 QR code/ })
      .waitFor();

    await page.getByRole('button', { name: 'Delete Mitchell front gate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete QR code' }).click();
    await page.getByText('No QR code matches').waitFor();
    assert.equal((await qrCodes('Mitchell front gate')).length, 0);
  });
});
