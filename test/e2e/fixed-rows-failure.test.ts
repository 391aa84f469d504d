/**
 * "Import the fixed rows" in Chromium for a workbook whose header is on row 3 of its second sheet
 * (issue 39, item 2): a failed import of the fixed rows is red (role alert) and says what failed
 * and what to do from the grid; once fixed, the row imports and the banner is green. The failure
 * is real: the import worker is killed while the gate geocoder holds it in the row's lookup.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { GATE_DIR_ENV, GATE_GEOCODER_MODULE, GATE_MARK } from '../support/gate-geocoder.ts';
import { headerRow3Workbook } from '../support/header-row-workbook.ts';
import { fileUpload, waitForTask } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { browserUnavailable } from './support/browser.ts';
import { docShot, editDraftCell } from './support/draft-grid.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable();
const gateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-fixed-rows-gate-'));
// The import workers the suite's server starts read it from the environment.
process.env[GATE_DIR_ENV] = gateDir;
const openGate = () => fs.writeFileSync(path.join(gateDir, 'open'), '');
const closeGate = () => {
  fs.rmSync(path.join(gateDir, 'open'), { force: true });
  fs.rmSync(path.join(gateDir, 'waiting'), { force: true });
};

/** The id of the worker process the gate holds, once it holds one (bounded wait). */
async function heldWorker(): Promise<number> {
  const waiting = path.join(gateDir, 'waiting');
  for (let polls = 0; polls < 1200; polls++) {
    if (fs.existsSync(waiting)) {
      const pid = Number(fs.readFileSync(waiting, 'utf8'));
      if (pid > 0) return pid;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import of the fixed rows never reached the gate');
}

describe('Import the fixed rows of a header-row-3 workbook in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession({ imports: { geocoderModule: GATE_GEOCODER_MODULE, workers: 1 } });
  after(() => {
    openGate();
    delete process.env[GATE_DIR_ENV];
  });

  test('a failed import is red with what failed and the next step; the fixed row then imports, in green', async () => {
    openGate();
    // Yard's suburb holds the gate's mark: it cannot be located, so the import excludes it.
    const workbook = await headerRow3Workbook('E2E-HR3', GATE_MARK);
    const upload = fileUpload(workbook, 'sites.xlsx', { organization_uuid: server.organizationUuid });
    const accepted = (await (await server.request('/api/qrcodes/bulk', upload)).json()) as { background_task_uuid: string };
    const task = await waitForTask(server, accepted.background_task_uuid);
    assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
    const created = await server.request('/api/import-drafts', jsonBody({ background_task_uuid: task.uuid }));
    assert.equal(created.status, 201, await created.clone().text());
    const draft = (await created.json()) as { uuid: string };
    closeGate();

    const page = await session.signedInPage(`/imports/drafts/${draft.uuid}`);
    await page.getByRole('heading', { name: 'Fix rows in place' }).waitFor();
    await page
      .getByTestId('draft-rows-shown')
      .filter({ hasText: /^1 rows? shown/ })
      .waitFor();
    await page.getByRole('button', { name: 'Import the fixed rows' }).click();
    // The import's worker looks Yard up and waits at the gate: it stops there for good.
    process.kill(await heldWorker(), 'SIGKILL');

    const banner = page.getByTestId('draft-last-import');
    await banner.filter({ hasText: 'The import of the fixed rows failed' }).waitFor({ timeout: 60_000 });
    assert.equal(await banner.getAttribute('role'), 'alert');
    const tone = (await banner.getAttribute('class')) ?? '';
    assert.match(tone, /notice-error/);
    assert.doesNotMatch(tone, /notice-success|notice-info/);
    const said = await banner.innerText();
    assert.match(said, /What failed: .+/);
    assert.match(said, /The rows it did not import are open here again, with your fixes: import the fixed rows again, or download them/);
    assert.doesNotMatch(said, /template|mapping/, 'nothing about what the grid cannot change');
    await docShot(page, 'fix-in-place-failed');

    openGate();
    assert.match((await editDraftCell(page, 1, 'suburb', 'Fitzroy')).said, /no problem left/);
    await page.getByRole('button', { name: 'Import the fixed rows' }).click();
    await banner.filter({ hasText: '1 imported, 0 excluded' }).waitFor({ timeout: 60_000 });
    assert.match((await banner.getAttribute('class')) ?? '', /notice-success/);
    assert.equal(await banner.getAttribute('role'), 'status');
    const found = await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&external_reference_id=E2E-HR3-2`);
    const items = ((await found.json()) as { items: { location: string }[] }).items;
    assert.equal(items.length, 1, 'the fixed row is in the database');
    assert.match(items[0]?.location ?? '', /Fitzroy/);
  });
});
