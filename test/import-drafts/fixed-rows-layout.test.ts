/**
 * "Import the fixed rows" reads the draft's rows as the draft wrote them, whatever sheet, header
 * row and column names the original file had (issue 39, item 2): a workbook whose header is on
 * row 3 of its second sheet, in the team's own column names, has its fixed row imported.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileLayoutOf } from '../../server/imports/engine/file-layout.ts';
import { findJob, jobFromRow } from '../../server/imports/workers/job-store.ts';
import { headerRow3Workbook, SITES_HEADER_ROW, SITES_SHEET } from '../support/header-row-workbook.ts';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';
import { type DraftBody, draftRows, editCell, json, openDraft } from './support.ts';

describe('import drafts: the fixed rows of a workbook whose header is not on row 1', () => {
  const server = suiteServer(startImportTestServer);

  it('imports the fixed row of a header-row-3 workbook on its second sheet, read by its own column names', async () => {
    const upload = fileUpload(await headerRow3Workbook('HR3'), 'sites.xlsx', { organization_uuid: server.organizationUuid });
    const accepted = await json<{ background_task_uuid: string }>(await server.request('/api/qrcodes/bulk', upload), 202);
    const task = await waitForTask(server, accepted.background_task_uuid);
    assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
    const job = await findJob(server.ctx.db.kysely, task.uuid);
    assert.ok(job);
    const layout = fileLayoutOf(jobFromRow(job).options);
    assert.deepEqual([layout.sheet, layout.headerRow], [SITES_SHEET, SITES_HEADER_ROW], 'the file was read from row 3 of its second sheet');

    const draft = await openDraft(server, task.uuid);
    const { rows } = await draftRows(server, draft.uuid);
    assert.deepEqual(
      rows.map((row) => [row.cells.name, row.cells.suburb, row.cells.qr_code_external_reference_id]),
      [['Yard', 'Nowhere Land', 'HR3-2']],
    );
    await editCell(server, draft.uuid, 1, 'suburb', 'Fitzroy');
    const fixed = await editCell(server, draft.uuid, 1, 'postcode', '3065');
    assert.equal(fixed.row.problem, null);

    const started = await json<{ background_task_uuid: string }>(
      await server.request(`/api/import-drafts/uuid/${draft.uuid}/import`, jsonBody({})),
      202,
    );
    const fixedTask = await waitForTask(server, started.background_task_uuid);
    assert.equal(fixedTask.status, 'COMPLETED', fixedTask.error_message ?? '');
    assert.equal(fixedTask.results?.inserted, 1);
    assert.equal(fixedTask.results?.excluded, 0);

    const after = await json<DraftBody>(await server.request(`/api/import-drafts/uuid/${draft.uuid}`), 200);
    assert.equal(after.last_import?.status, 'COMPLETED');
    assert.equal(after.last_import?.message, 'Every fixed row was imported.');
    assert.equal(after.rows_imported, 1);
    const found = await json<{ items: { external_reference_id: string | null; location: string }[] }>(
      await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&search=HR3-2`),
      200,
    );
    assert.deepEqual(
      found.items.map((item) => item.external_reference_id),
      ['HR3-2'],
    );
    assert.match(found.items[0]?.location ?? '', /Fitzroy/);
  });
});
