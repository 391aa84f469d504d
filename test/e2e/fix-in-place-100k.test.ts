/**
 * Fix in place at scale, in Chromium: a draft of 100,000 excluded rows. The grid scrolls to the
 * middle, reads the rows there, and one cell is edited; the times are printed (recorded, not
 * asserted: the machine's load decides them), e.g. "100k grid: scroll to row 50,000 shown in 140 ms".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_IMPORT_LIMITS } from '../../server/imports/limits.ts';
import { fileUpload, waitForTask } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { browserUnavailable } from './support/browser.ts';
import { draftGrid, editDraftCell } from './support/draft-grid.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable();
const ROWS = 100_000;

/** Rows the import excludes at once (a type it does not know), each with its own name. */
function badTypeCsv(rows: number): string {
  const lines = ['location,name,type'];
  for (let i = 1; i <= rows; i++) lines.push(`"${i} High Street, Carlton VIC 3053",Site ${i},depot!`);
  return `${lines.join('\n')}\n`;
}

describe('Fix in place with 100,000 excluded rows', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession({ imports: { limits: { ...DEFAULT_IMPORT_LIMITS, maxStoredExcluded: ROWS } } });

  test('scrolls to the middle of the grid and edits a cell there; prints the answer times', async () => {
    const accepted = await server.request(
      '/api/qrcodes/bulk',
      fileUpload(badTypeCsv(ROWS), 'depots.csv', { organization_uuid: server.organizationUuid }),
    );
    assert.equal(accepted.status, 202);
    const task = await waitForTask(server, ((await accepted.json()) as { background_task_uuid: string }).background_task_uuid, 6000);
    assert.equal(task.status, 'COMPLETED');
    const created = await server.request('/api/import-drafts', jsonBody({ background_task_uuid: task.uuid }));
    assert.equal(created.status, 201);
    const draft = (await created.json()) as { uuid: string; rows: number };
    assert.equal(draft.rows, ROWS);

    const page = await session.signedInPage(`/imports/drafts/${draft.uuid}`);
    await page.getByTestId('draft-rows-shown').filter({ hasText: '100,000 rows shown' }).waitFor({ timeout: 60_000 });
    const grid = draftGrid(page);
    const middle = ROWS / 2;
    const started = Date.now();
    await grid.evaluate(
      (el, top) => {
        el.scrollTop = top;
      },
      (middle - 1) * 34,
    );
    await grid.locator(`[data-problem-of="${middle}"]`).waitFor();
    const scrollMs = Date.now() - started;

    const edit = await editDraftCell(page, middle, 'type', 'DEPOT');
    assert.match(edit.said, new RegExp(`^Row ${middle + 1} checked again`), 'the row as the file numbers it: the header is line 1');
    const next = await editDraftCell(page, middle + 1, 'type', 'SITE');
    assert.match(next.said, /no problem left/);
    const filterStarted = Date.now();
    await page.getByRole('checkbox', { name: 'Only rows with problems' }).check();
    await page.getByTestId('draft-rows-shown').filter({ hasText: '99,998 rows shown' }).waitFor({ timeout: 60_000 });
    const filterMs = Date.now() - filterStarted;
    process.stdout.write(
      `100k grid: scroll to row ${middle.toLocaleString('en-US')} shown in ${scrollMs} ms; edits answered on screen in ${edit.ms} and ${next.ms} ms (${edit.said.replace(/:.*/, '')}; ${next.said.replace(/:.*/, '')}); "only rows with problems" in ${filterMs} ms\n`,
    );
  });
});
