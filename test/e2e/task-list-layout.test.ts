/** The task list at 1280 and 800 px keeps each task's results in view; a task page names who started it. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserUnavailable } from './support/browser.ts';
import { makeTask, seedTasks } from './support/seed.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable();

describe('Task list layout in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  test('"100,000 inserted" and a long error stay in view at 1280 and 800 px; Created by names the key', async () => {
    const org = server.organizationUuid;
    const big = makeTask(org, {
      results: { inserted: 100_000, excluded: 12_345, excluded_data: [] },
      metadata: {
        filename: 'a-very-long-file-name-of-a-sites-export-2026.csv',
        import_type: 'qr_code',
        source: 'file',
        api_key_name: 'Field team key',
        api_key_role: 'editor',
      },
    });
    const failed = makeTask(org, {
      status: 'FAILED',
      results: null,
      error_message: `The file is missing the required column location. ${'Its columns are many. '.repeat(12)}`,
    });
    await seedTasks(server.ctx.db.kysely, [big, failed]);
    for (const [width, height] of [
      [1280, 800],
      [800, 700],
    ] as const) {
      const page = await session.newPage({ width, height });
      const c = server.credentials;
      assert.ok(c);
      await page.goto(`${server.url}/tasks#key=${c.api_key}:${c.api_secret}`);
      const table = page.getByRole('table', { name: 'Background tasks' });
      await table.waitFor();
      for (const uuid of [big.uuid, failed.uuid]) {
        const cell = table.locator(`tr[data-task-uuid="${uuid}"] td.results-cell`);
        const box = await cell.boundingBox();
        const tableBox = await table.boundingBox();
        assert.ok(
          box && tableBox && box.x + box.width <= tableBox.x + tableBox.width + 1,
          `the results of ${uuid} are in view at ${width} px`,
        );
      }
      const results = table.locator(`tr[data-task-uuid="${big.uuid}"] td.results-cell`);
      assert.match(await results.innerText(), /^100,000 inserted,\s+12,345 excluded$/);
      const firstLineFits = await results.evaluate((td) => {
        const range = td.ownerDocument.createRange();
        const text = td.querySelector('span')?.firstChild;
        if (!text) return false;
        range.setStart(text, 0);
        range.setEnd(text, '100,000 inserted,'.length);
        return range.getClientRects().length === 1;
      });
      assert.ok(firstLineFits, `"100,000 inserted," is on one line at ${width} px`);
      const errorHeight = (await table.locator(`tr[data-task-uuid="${failed.uuid}"]`).boundingBox())?.height ?? 0;
      assert.ok(errorHeight < 80, `a long error takes two lines, not the row (${errorHeight} px at ${width} px)`);
    }
    const page = await session.signedInPage(`/tasks/${big.uuid}`);
    const createdBy = page.locator('.fact').filter({ has: page.getByText('Created by', { exact: true }) });
    assert.match(await createdBy.innerText(), /Field team key \(editor\) · key /);
  });
});
