/**
 * Every import kind of the registry on the Imports screen, in Chromium against a real server: it
 * appears by itself (GET /api/meta), and the services kind (a sandbox addition, no GUI code of its
 * own) is checked, imported and listed in its own words, not as a QR code import.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserUnavailable, previewCsvFile } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable();

const SERVICES_CSV = ['name,code,categories', 'Roof Inspection,ROF,Maintenance; Safety', 'Lift Service,LFT,', 'Cleaning,ELE,'].join('\r\n');

describe('Import kinds in Chromium: each from the registry', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  test('every kind of GET /api/meta is a choice on the Imports screen', async () => {
    const meta = (await (await server.request('/api/meta')).json()) as { kinds: { label: string }[] };
    const page = await session.signedInPage('/imports');
    for (const kind of meta.kinds) await page.getByRole('radio', { name: kind.label }).waitFor();
  });

  test('services: a check and an import in their own words, listed as a service catalog import', async () => {
    const page = await session.signedInPage('/imports');
    await page.getByRole('radio', { name: 'Services (catalog)' }).check();
    await previewCsvFile(page, 'catalog.csv', SERVICES_CSV);
    await page.getByRole('button', { name: 'Check only' }).click();
    await page.getByRole('heading', { name: 'Check result: nothing was imported' }).waitFor({ timeout: 60_000 });
    assert.match(
      await page.getByText(/The whole file went through the import here/).innerText(),
      /names and codes compared with the catalog/,
    );
    const checked = await page.getByRole('list', { name: 'Check counts' }).innerText();
    assert.match(checked, /2\s+inserted[\s\S]*1\s+excluded/);

    await page.getByRole('button', { name: 'Start the import' }).click();
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
    assert.match(await page.getByRole('list', { name: 'Import counts' }).innerText(), /2\s+inserted[\s\S]*1\s+excluded/);
    await page.getByRole('link', { name: 'View the services' }).waitFor();

    const tasks = await session.signedInPage('/tasks');
    const row = tasks.getByRole('link', { name: /^Service catalog import, catalog\.csv/ });
    await row.first().waitFor();
    assert.match(await tasks.locator('.task-type', { hasText: 'Service catalog import' }).first().innerText(), /Service catalog import/);
    assert.match(
      await tasks
        .getByText(/2 inserted, 1 excluded/)
        .first()
        .innerText(),
      /2 inserted, 1 excluded/,
    );
  });
});
