/**
 * Row numbers in Chromium: a workbook whose rows are on its second sheet under a title row (header on
 * row 3) has its unplaceable row at sheet row 8; the task page and the fix grid say 8, as Excel does.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { fileUpload, TINY_GEOCODER_MODULE, waitForTask } from '../support/imports.ts';
import { titledWorkbook } from '../support/titled-workbook.ts';
import { browserUnavailable } from './support/browser.ts';
import { draftGrid } from './support/draft-grid.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable() ?? false;

describe('row numbers in the GUI: the row as the file shows it', { skip }, () => {
  const { session, server } = suiteGuiSession({ imports: { geocoderModule: TINY_GEOCODER_MODULE } });

  it('the task page and the fix grid number the excluded row by its sheet row', async () => {
    const accepted = await server.request(
      '/api/qrcodes/bulk',
      fileUpload(await titledWorkbook(), 'sites.xlsx', { organization_uuid: server.organizationUuid }),
    );
    assert.equal(accepted.status, 202, await accepted.clone().text());
    const { background_task_uuid: uuid } = (await accepted.json()) as { background_task_uuid: string };
    assert.equal((await waitForTask(server, uuid)).status, 'COMPLETED');

    const page = await session.signedInPage(`/tasks/${uuid}`);
    const table = page.getByRole('grid', { name: 'Excluded rows' }).or(page.getByRole('table', { name: 'Excluded rows' }));
    await table.getByText('Nowhere').first().waitFor();
    await page.getByRole('heading', { name: 'Row 8 of sheet Sites: one problem' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: /Row 6/ }).count(), 0, 'not index + 2');
    // The file's own column names lead, the kind's beside them.
    const details = page.getByRole('region', { name: /Excluded row 8/ });
    await details.locator('dt', { hasText: 'Town' }).filter({ hasText: 'suburb' }).waitFor();
    await details.locator('dt', { hasText: 'Ext Ref' }).filter({ hasText: 'qr_code_external_reference_id' }).waitFor();
    await page.getByRole('columnheader', { name: 'Ext Ref · qr_code_external_reference_id' }).waitFor();

    await page.getByRole('button', { name: 'Fix the rows here' }).click();
    await page.getByRole('heading', { name: 'Fix rows in place' }).waitFor();
    const rowCell = draftGrid(page).locator('.draft-row-id').first();
    await rowCell.waitFor();
    assert.equal((await rowCell.innerText()).trim(), '8');
    await draftGrid(page).getByRole('columnheader', { name: 'Town · suburb' }).waitFor();
    // The workbook has two sheets: the grid says whose rows these are.
    await page
      .getByText(/1 row of sheet Sites/)
      .first()
      .waitFor();
    assert.equal(await rowCell.getAttribute('title'), 'Row 8 of sheet Sites; line 1 of this grid');

    // The grid opens on the cell to fix (Town, where the address failed), in view on a laptop and a narrow window.
    for (const width of [1280, 800]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      const cell = draftGrid(page).locator('[data-cell="1:suburb"]');
      await cell.waitFor();
      await page.waitForTimeout(200);
      const [box, gridBox] = [await cell.boundingBox(), await draftGrid(page).boundingBox()];
      assert.ok(box && gridBox, 'the problem cell is drawn');
      assert.ok(
        box.x >= gridBox.x && box.x + Math.min(box.width, 40) <= Math.min(gridBox.x + gridBox.width, width),
        `in view at ${width} px`,
      );
    }
  });

  it('the same workbook as an .ods (read by SheetJS): sheet row 8, with its sheet named', async () => {
    const ods = fs.readFileSync(new URL('../fixtures/workbench/titled-sites.ods', import.meta.url));
    const accepted = await server.request(
      '/api/qrcodes/bulk',
      fileUpload(ods, 'sites.ods', { organization_uuid: server.organizationUuid }),
    );
    assert.equal(accepted.status, 202, await accepted.clone().text());
    const { background_task_uuid: uuid } = (await accepted.json()) as { background_task_uuid: string };
    assert.equal((await waitForTask(server, uuid)).status, 'COMPLETED');
    const page = await session.signedInPage(`/tasks/${uuid}`);
    await page.getByRole('heading', { name: 'Row 8 of sheet Sites: one problem' }).waitFor();
    await page.getByText('Row is the row as your file shows it (of its sheet Sites).').waitFor();
  });
});
