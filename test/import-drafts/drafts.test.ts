import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { startImportTestServer, waitForTask } from '../support/imports.ts';
import { tempDataDir } from '../support/server.ts';
import { bearer, jsonBody, type TestServer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';
import { APPOINTMENT_FILE, type DraftBody, draftRows, editCell, ensurePlumbing, importFile, json, openDraft, QR_FILE } from './support.ts';

const post = (server: TestServer, path: string, body: unknown = {}) => server.request(path, jsonBody(body));

async function importFixed(server: TestServer, uuid: string) {
  const accepted = await json<{ background_task_uuid: string }>(await post(server, `/api/import-drafts/uuid/${uuid}/import`), 202);
  return waitForTask(server, accepted.background_task_uuid);
}

async function qrByReference(server: TestServer, reference: string) {
  const res = await server.request(`/api/qrcodes?organization_uuid=${server.organizationUuid}&search=${reference}`);
  const page = await json<{ items: { external_reference_id: string | null; location: string }[] }>(res, 200);
  return page.items.filter((item) => item.external_reference_id === reference);
}

describe('import drafts: excluded rows fixed in place', () => {
  const server = suiteServer(startImportTestServer);

  it("opens a QR code import's excluded rows with every column and each problem at its column", async () => {
    const task = await importFile(server, '/api/qrcodes/bulk', QR_FILE);
    assert.equal(task.status, 'COMPLETED');
    const draft = await openDraft(server, task.uuid);
    assert.equal(draft.kind, 'qrcodes');
    assert.equal(draft.source_task_uuid, task.uuid);
    assert.ok(draft.columns.includes('tag_number') && draft.columns.includes('label'), 'every column of the kind');
    assert.equal(draft.rows, 3);
    assert.equal(draft.rows_with_problems, 3);
    const { rows } = await draftRows(server, draft.uuid);
    assert.deepEqual(
      rows.map((r) => [r.row_number, r.cells.name, r.problem_column]),
      [
        [3, 'Yard', 'location'],
        [4, 'Shed', 'location'],
        [5, 'Gate', 'tag_number'],
      ],
    );
    assert.match(rows[2]?.problem ?? '', /already belongs to another QR code/);
    assert.equal(rows[0]?.cells.label, '', 'columns the file did not have are empty');

    const again = await openDraft(server, task.uuid, 200);
    assert.equal(again.uuid, draft.uuid, 'an import has one open draft');

    // Fix each row: the answer is the new verdict from the import's own checks.
    const unknownSuburb = await editCell(server, draft.uuid, 1, 'location', '2 High Street, Carlton VIC 3053');
    assert.equal(unknownSuburb.row.problem, null);
    assert.equal(typeof unknownSuburb.check_ms, 'number');
    const stillWrong = await editCell(server, draft.uuid, 2, 'location', '3 High Street, Fitzroy VICC 3065');
    assert.match(stillWrong.row.problem ?? '', /could not be located/);
    const state = await editCell(server, draft.uuid, 2, 'location', '3 High Street, Fitzroy VIC 3065');
    assert.equal(state.row.problem, null);
    const tag = await editCell(server, draft.uuid, 3, 'tag_number', '8');
    assert.equal(tag.row.problem, null);
    const reread = await json<DraftBody>(await server.request(`/api/import-drafts/uuid/${draft.uuid}`), 200);
    assert.equal(reread.rows_with_problems, 0);
    assert.equal(reread.can_undo, true);
    assert.equal(reread.last_action, 'Edit tag_number of row 3');

    // Downloads carry the fixed values.
    const csv = await server.request(`/api/import-drafts/uuid/${draft.uuid}/download?format=csv`);
    assert.equal(csv.status, 200);
    const parsed = Papa.parse<string[]>((await csv.text()).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    assert.deepEqual(parsed[0], draft.columns);
    assert.equal(parsed.length, 4);
    assert.ok(parsed.some((line) => line.includes('2 High Street, Carlton VIC 3053')));
    const xlsx = await server.request(`/api/import-drafts/uuid/${draft.uuid}/download?format=xlsx`);
    assert.equal(xlsx.status, 200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const sheet = workbook.worksheets[0];
    const tagColumn = draft.columns.indexOf('tag_number') + 1;
    assert.equal(sheet?.getRow(4).getCell(tagColumn).value, '8');

    // Import the fixed rows: every row ends in the database, linked to the import it fixes.
    const fixed = await importFixed(server, draft.uuid);
    assert.equal(fixed.status, 'COMPLETED');
    assert.equal(fixed.metadata?.fixes_task_uuid, task.uuid);
    assert.equal(fixed.metadata?.import_draft_uuid, draft.uuid);
    for (const reference of ['REF-1', 'REF-2', 'REF-3', 'REF-4'])
      assert.equal((await qrByReference(server, reference)).length, 1, reference);
    const after = await json<DraftBody>(await server.request(`/api/import-drafts/uuid/${draft.uuid}`), 200);
    assert.equal(after.status, 'open');
    assert.equal(after.rows_imported, 3);
    assert.equal(after.last_import?.imported, 3);
    assert.equal(after.can_undo, false, 'an import ends the undo history');
    const shown = await draftRows(server, draft.uuid);
    assert.deepEqual(
      shown.rows.map((r) => r.state),
      ['imported', 'imported', 'imported'],
    );
    const nothing = await post(server, `/api/import-drafts/uuid/${draft.uuid}/import`);
    assert.equal(nothing.status, 409);
  });

  it('shows the rows an import of the fixed rows excluded again, with the new problem', async () => {
    const task = await importFile(
      server,
      '/api/qrcodes/bulk',
      'name,location,qr_code_external_reference_id\nA,"1 Nowhere Road, Atlantis VIC 3999",X-1\nB,"2 Nowhere Road, Atlantis VIC 3999",X-2\n',
    );
    const draft = await openDraft(server, task.uuid);
    await editCell(server, draft.uuid, 1, 'location', '1 High Street, Geelong VIC 3220');
    const fixed = await importFixed(server, draft.uuid);
    assert.equal(fixed.status, 'COMPLETED');
    const after = await json<DraftBody>(await server.request(`/api/import-drafts/uuid/${draft.uuid}`), 200);
    assert.deepEqual([after.rows_imported, after.rows_with_problems, after.last_import?.excluded], [1, 1, 1]);
    const open = await draftRows(server, draft.uuid, '?problems_only=true');
    assert.equal(open.total, 1);
    assert.equal(open.rows[0]?.cells.name, 'B');
    assert.match(open.rows[0]?.problem ?? '', /could not be located/);
  });

  it("opens an appointment import's excluded rows and imports them fixed", async () => {
    await ensurePlumbing(server);
    const task = await importFile(server, '/api/appointment_schedule/bulk', APPOINTMENT_FILE);
    const draft = await openDraft(server, task.uuid);
    assert.equal(draft.kind, 'appointments');
    const { rows } = await draftRows(server, draft.uuid);
    assert.deepEqual(
      rows.map((r) => r.problem_column),
      ['start_date_time', 'service'],
    );
    assert.equal((await editCell(server, draft.uuid, 1, 'start_date_time', '2026-03-03 09:00')).row.problem, null);
    assert.match((await editCell(server, draft.uuid, 2, 'service', 'Plumbin')).row.problem ?? '', /service catalog/);
    assert.equal((await editCell(server, draft.uuid, 2, 'service', 'Plumbing')).row.problem, null);
    const fixed = await importFixed(server, draft.uuid);
    assert.equal(fixed.status, 'COMPLETED', JSON.stringify(fixed));
    assert.equal(fixed.metadata?.fixes_task_uuid, task.uuid);
    const list = await json<{ items: { job_reference_id: string | null }[] }>(
      await server.request(`/api/appointment_schedule?organization_uuid=${server.organizationUuid}&per_page=100`),
      200,
    );
    const references = new Set(list.items.map((a) => a.job_reference_id));
    for (const reference of ['JOB-1', 'JOB-2', 'JOB-3']) assert.ok(references.has(reference), reference);
  });

  it('replaces in a column, fills down, deletes rows and undoes each, one at a time', async () => {
    const lines = ['name,location,label'];
    for (let i = 0; i < 6; i++) lines.push(`Site ${i},"${i + 1} Main Road, Carltn VIC 3053",${i === 0 ? 'Blue' : ''}`);
    const task = await importFile(server, '/api/qrcodes/bulk', `${lines.join('\n')}\n`);
    const draft = await openDraft(server, task.uuid);
    assert.equal(draft.rows_with_problems, 6);
    const path = `/api/import-drafts/uuid/${draft.uuid}`;

    const replaced = await json<{ changed: number; rechecked: number; draft: DraftBody }>(
      await post(server, `${path}/replace`, { column: 'location', find: 'carltn', replace: 'Carlton' }),
      200,
    );
    assert.deepEqual([replaced.changed, replaced.rechecked, replaced.draft.rows_with_problems], [6, 6, 0]);
    assert.equal((await draftRows(server, draft.uuid, '?search=carlton')).total, 6);

    const whole = await json<{ changed: number }>(
      await post(server, `${path}/replace`, { column: 'location', find: 'Carlton', replace: 'X', whole_cell: true }),
      200,
    );
    assert.equal(whole.changed, 0, 'whole_cell matches the whole cell only');

    const filled = await json<{ changed: number }>(
      await post(server, `${path}/fill-down`, { column: 'label', from_row_id: 1, to_row_id: 4 }),
      200,
    );
    assert.equal(filled.changed, 3);
    const labels = (await draftRows(server, draft.uuid)).rows.map((r) => r.cells.label);
    assert.deepEqual(labels, ['Blue', 'Blue', 'Blue', 'Blue', '', '']);

    const deleted = await json<{ draft: DraftBody }>(await post(server, `${path}/delete-rows`, { row_ids: [5, 6] }), 200);
    assert.equal(deleted.draft.rows, 4);
    assert.equal(deleted.draft.last_action, 'Delete 2 rows');

    const undo = async () => json<{ changed: number; draft: DraftBody }>(await post(server, `${path}/undo`), 200);
    assert.equal((await undo()).draft.rows, 6, 'the deleted rows are back');
    assert.deepEqual(
      (await draftRows(server, draft.uuid)).rows.map((r) => r.cells.label),
      ['Blue', 'Blue', 'Blue', 'Blue', '', ''],
    );
    await undo();
    assert.deepEqual(
      (await draftRows(server, draft.uuid)).rows.map((r) => r.cells.label),
      ['Blue', '', '', '', '', ''],
      'fill down undone',
    );
    const before = await undo();
    assert.equal(before.draft.rows_with_problems, 6, 'the replace undone: the old problems are back');
    assert.equal((await draftRows(server, draft.uuid, '?search=carltn&problems_only=true')).total, 6);
    const empty = await post(server, `${path}/undo`);
    assert.equal(empty.status, 409);

    // Wrong input is a 400 that names the field.
    const badColumn = await post(server, `${path}/replace`, { column: 'nope', find: 'a', replace: 'b' });
    assert.equal(badColumn.status, 400);
    const upwards = await post(server, `${path}/fill-down`, { column: 'label', from_row_id: 3, to_row_id: 1 });
    assert.equal(upwards.status, 400);
    const missingRow = await server.request(`${path}/rows/999`, jsonBody({ column: 'label', value: 'x' }, 'PATCH'));
    assert.equal(missingRow.status, 404);

    const discarded = await server.request(path, { method: 'DELETE' });
    assert.equal(discarded.status, 204);
    assert.equal((await server.request(path)).status, 404);
  });

  it('opens a preview-style draft from rows, and refuses what cannot be a draft', async () => {
    const made = await json<DraftBody>(
      await post(server, '/api/import-drafts', {
        kind: 'qrcodes',
        rows: [
          { row_number: 2, values: { name: 'P1', location: '9 High Street, Nowhereville VIC 3999' } },
          { row_number: 3, values: { name: 'P2', location: '9 High Street, Carlton VIC 3053' } },
        ],
      }),
      201,
    );
    assert.equal(made.source_task_uuid, null);
    assert.equal(made.rows, 2);
    assert.equal(made.rows_with_problems, 1, "checked at once with the import's checks");
    const unknownColumn = await post(server, '/api/import-drafts', { kind: 'qrcodes', rows: [{ values: { colour: 'red' } }] });
    assert.equal(unknownColumn.status, 400);
    const clean = await importFile(server, '/api/qrcodes/bulk', 'name,location\nC,"5 High Street, Carlton VIC 3053"\n');
    assert.equal((await post(server, '/api/import-drafts', { background_task_uuid: clean.uuid })).status, 400);
    assert.equal((await post(server, '/api/import-drafts', { background_task_uuid: 'no-such-task' })).status, 404);
  });

  it('opens the excluded rows of a JSON import, keyed by their fields', async () => {
    const accepted = await json<{ background_task_uuid: string }>(
      await post(server, '/api/qrcodes/bulk', [
        { organization_uuid: server.organizationUuid, name: 'J1', location: '1 Nowhere Road, Atlantis VIC 3999', Tag_Name: 'Door' },
      ]),
      202,
    );
    const task = await waitForTask(server, accepted.background_task_uuid);
    const draft = await openDraft(server, task.uuid);
    const { rows } = await draftRows(server, draft.uuid);
    assert.equal(rows[0]?.row_number, 1, 'a JSON element is numbered from 1');
    assert.equal(rows[0]?.cells.name, 'J1');
    assert.equal(rows[0]?.cells.tag_name, 'Door', 'keys matched like header cells');
  });

  it('checks the first 1,000 rows a replace changes at once and leaves the rest to the import', async () => {
    const rows = Array.from({ length: 1005 }, (_, i) => ({ values: { name: `R${i}`, location: `${i + 1} High Street, Carltn VIC 3053` } }));
    rows.push({ values: {} as { name: string; location: string } });
    const draft = await json<DraftBody>(await post(server, '/api/import-drafts', { kind: 'qrcodes', rows }), 201);
    assert.equal(draft.rows_with_problems, 1006);
    const empty = await draftRows(server, draft.uuid, '?offset=1005&limit=1');
    assert.match(empty.rows[0]?.problem ?? '', /The row is empty/);
    const replaced = await json<{ changed: number; rechecked: number; draft: DraftBody }>(
      await post(server, `/api/import-drafts/uuid/${draft.uuid}/replace`, {
        column: 'location',
        find: 'carltn',
        replace: 'Carlton',
        match_case: false,
      }),
      200,
    );
    assert.deepEqual([replaced.changed, replaced.rechecked], [1005, 1000]);
    const last = await draftRows(server, draft.uuid, '?offset=1004&limit=1');
    assert.equal(last.rows[0]?.checked, false, 'changed but not checked again: the import checks it');
    assert.match(last.rows[0]?.problem ?? '', /could not be located/, 'the problem found before stays until then');
    const first = await draftRows(server, draft.uuid, '?limit=1');
    assert.deepEqual([first.rows[0]?.checked, first.rows[0]?.problem], [true, null]);
    const fixed = await importFixed(server, draft.uuid);
    assert.equal(fixed.metadata?.fixes_task_uuid, undefined, 'rows from a preview fix no task');
    const after = await json<DraftBody>(await server.request(`/api/import-drafts/uuid/${draft.uuid}`), 200);
    assert.deepEqual([after.rows_imported, after.rows_with_problems], [1005, 1]);
  });

  it('opens a draft again whose import never started (the server stopped in between)', async () => {
    const task = await importFile(server, '/api/qrcodes/bulk', 'name,location\nS,"1 Nowhere Road, Atlantis VIC 3999"\n');
    const draft = await openDraft(server, task.uuid);
    server.ctx.db.sqlite
      .prepare("update import_drafts set status = 'importing', updated_on = ? where uuid = ?")
      .run(new Date(Date.now() - 120_000).toISOString(), draft.uuid);
    const edited = await editCell(server, draft.uuid, 1, 'name', 'Stuck no more');
    assert.equal(edited.row.cells.name, 'Stuck no more');
    server.ctx.db.sqlite
      .prepare("update import_drafts set status = 'importing', updated_on = ? where uuid = ?")
      .run(new Date().toISOString(), draft.uuid);
    const refused = await server.request(`/api/import-drafts/uuid/${draft.uuid}/undo`, { method: 'POST' });
    assert.equal(refused.status, 409, 'while its import is starting, the draft waits');
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /being imported/);
  });

  it('lets a viewer read a draft but not change it, and hides it from other organizations', async () => {
    const task = await importFile(server, '/api/qrcodes/bulk', 'name,location\nV,"1 Nowhere Road, Atlantis VIC 3999"\n');
    const draft = await openDraft(server, task.uuid);
    const key = await json<{ api_key: string; api_secret: string }>(
      await post(server, '/api/api-keys', { role: 'viewer', name: 'draft reader' }),
      201,
    );
    const headers = { authorization: bearer(key) };
    assert.equal((await server.request(`/api/import-drafts/uuid/${draft.uuid}/rows`, { headers })).status, 200);
    const list = await json<{ data: DraftBody[] }>(
      await server.request(`/api/import-drafts?background_task_uuid=${task.uuid}`, { headers }),
      200,
    );
    assert.deepEqual(
      list.data.map((d) => d.uuid),
      [draft.uuid],
    );
    const write = await server.request(`/api/import-drafts/uuid/${draft.uuid}/rows/1`, {
      ...jsonBody({ column: 'name', value: 'x' }, 'PATCH'),
      headers: { ...headers, 'content-type': 'application/json' },
    });
    assert.equal(write.status, 403);
    const other = await createOrganization(server.ctx.db.kysely, { name: 'Other Org' });
    const otherHeaders = { authorization: bearer(other) };
    assert.equal((await server.request(`/api/import-drafts/uuid/${draft.uuid}`, { headers: otherHeaders })).status, 404);
    const theirs = await server.request('/api/import-drafts', {
      ...jsonBody({ background_task_uuid: task.uuid }),
      headers: { ...otherHeaders, 'content-type': 'application/json' },
    });
    assert.equal(theirs.status, 404);
  });
});

describe('import drafts survive a restart', () => {
  it('keeps the edits and the undo history when the server starts again', async () => {
    const dataDir = tempDataDir();
    let server = await startImportTestServer({ dataDir });
    try {
      const task = await importFile(server, '/api/qrcodes/bulk', QR_FILE);
      const draft = await openDraft(server, task.uuid);
      await editCell(server, draft.uuid, 1, 'location', '2 High Street, Carlton VIC 3053');
      await server.stop();
      server = await startImportTestServer({ dataDir });
      const kept = await draftRows(server, draft.uuid);
      assert.equal(kept.rows[0]?.cells.location, '2 High Street, Carlton VIC 3053');
      assert.equal(kept.rows[0]?.problem, null);
      const undone = await json<{ draft: DraftBody }>(await post(server, `/api/import-drafts/uuid/${draft.uuid}/undo`), 200);
      assert.equal(undone.draft.rows_with_problems, 3);
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
