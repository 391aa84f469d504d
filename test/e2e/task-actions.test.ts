/**
 * The task pages as a user finds, stops and retries an import: search the task list, cancel a
 * running import from its page, retry it from its kept file, and follow the links between the two.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TINY_GEOCODER_MODULE, addressCsv, startCsvImport, waitForTask } from '../support/imports.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';

const ROWS = 60_000;
const skip = browserUnavailable() ?? false;

describe('finding, cancelling and retrying an import in the GUI', { skip }, () => {
  const { session, server } = suiteGuiSession({ imports: { geocoderModule: TINY_GEOCODER_MODULE, workers: 1 } });

  it('cancels a running import from its page, then retries it and finds both tasks by search', async () => {
    const uuid = await startCsvImport(server, addressCsv(ROWS, 'GUI'), 'depot-sites-2026.csv');
    for (let polls = 0; ; polls++) {
      const task = (await (await server.request(`/api/background-tasks/uuid/${uuid}`)).json()) as { status: string; progress: number };
      if (task.status === 'PROCESSING' && task.progress > 0) break;
      assert.ok(polls < 2000 && task.status !== 'COMPLETED', 'the import is under way');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const page = await session.signedInPage(`/tasks/${uuid}`);
    await page.getByRole('button', { name: 'Cancel the import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this import?' });
    await dialog.getByText('Rows already written stay').waitFor();
    await dialog.getByRole('button', { name: 'Cancel the import' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /The import was cancelled\. Cancelled by .* after [\d,]+ rows/ })
      .waitFor();
    await page.locator('.badge-cancelled', { hasText: 'Cancelled' }).waitFor();
    assert.equal(await page.getByText('The task failed.').count(), 0, 'a cancelled import is not called failed');
    const cancelled = await waitForTask(server, uuid);
    assert.equal(cancelled.status, 'FAILED', 'the API keeps the service statuses');

    await page.getByRole('button', { name: 'Retry the import' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/tasks/') && !url.pathname.endsWith(uuid));
    const retryUuid = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.getByText(`A retry of task ${uuid.slice(0, 8)}`).waitFor();
    assert.equal((await waitForTask(server, retryUuid)).status, 'COMPLETED');
    await page.locator('.badge-completed').first().waitFor();
    await page.getByRole('link', { name: `task ${uuid.slice(0, 8)}` }).click();
    await page.getByText(`Retried as task ${retryUuid.slice(0, 8)}`).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Retry the import' }).count(), 0, 'a task is retried once');

    await page.goto(`${server.url}/tasks`);
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('depot-sites');
    const rows = page.getByRole('table', { name: 'Background tasks' }).getByRole('row');
    await rows.filter({ hasText: 'depot-sites-2026.csv' }).nth(1).waitFor();
    await search.fill('cancelled by');
    await page.getByText('1 task', { exact: false }).first().waitFor();
    await rows.filter({ hasText: 'Cancelled' }).waitFor();
    assert.equal(
      await rows.filter({ hasText: 'depot-sites-2026.csv' }).count(),
      1,
      'only the cancelled task has "cancelled by" in its error',
    );
    // The status filter has Cancelled; Failed leaves the cancelled import out.
    await search.fill('');
    await page.getByLabel('Status').selectOption('CANCELLED');
    await page.waitForURL((url) => url.searchParams.get('status') === 'CANCELLED');
    await rows.filter({ hasText: 'Completed' }).first().waitFor({ state: 'detached' });
    assert.equal(
      await rows.filter({ hasText: 'depot-sites-2026.csv' }).filter({ hasText: 'Cancelled' }).count(),
      1,
      'the cancelled import, alone',
    );
    await page.getByLabel('Status').selectOption('FAILED');
    await page.getByText('No tasks match these filters').waitFor();
  });
});
