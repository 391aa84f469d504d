/**
 * What a draft accepts is bounded before it is applied (issue 38): a cell's length after a
 * replace, a fill down or an edit (the kind's column limits), the bytes one change adds, the
 * drafts an organization keeps, and text that is valid Unicode without NUL. A refused change is a
 * 400 naming the limit and nothing is written. A row stored before these bounds is not read.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_IMPORT_LIMITS } from '../../server/imports/limits.ts';
import { startImportTestServer } from '../support/imports.ts';
import { jsonBody, type TestServer } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';
import { type DraftBody, type DraftRowBody, draftRows, importFile, json, openDraft } from './support.ts';

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

const CHANGE_LIMIT = 256 * 1024;
const DRAFT_LIMIT = 3;

async function draftOf(server: TestServer, rows: Record<string, string>[], status = 201): Promise<DraftBody> {
  const body = { kind: 'qrcodes', rows: rows.map((values) => ({ values })) };
  return json<DraftBody>(await server.request('/api/import-drafts', jsonBody(body)), status);
}

const post = (server: TestServer, uuid: string, action: string, body: unknown) =>
  server.request(`/api/import-drafts/uuid/${uuid}/${action}`, jsonBody(body));

const describeDraft = async (server: TestServer, uuid: string) =>
  json<DraftBody>(await server.request(`/api/import-drafts/uuid/${uuid}`), 200);

async function discardAll(server: TestServer): Promise<void> {
  const list = await json<{ data: DraftBody[] }>(await server.request('/api/import-drafts'), 200);
  for (const draft of list.data) {
    const res = await server.request(`/api/import-drafts/uuid/${draft.uuid}`, { method: 'DELETE' });
    assert.equal(res.status, 204);
  }
}

/** The draft is as it was: the same cells, no edit to undo. */
async function assertUnchanged(server: TestServer, uuid: string, before: DraftRowBody[]): Promise<void> {
  const after = await draftRows(server, uuid);
  assert.deepEqual(
    after.rows.map((r) => r.cells),
    before.map((r) => r.cells),
  );
  const draft = await describeDraft(server, uuid);
  assert.equal(draft.can_undo, false, 'no edit was kept');
  assert.equal(draft.last_action, null);
}

describe('import drafts: every change is bounded before it is applied', () => {
  const server = suiteServer(() =>
    startImportTestServer({
      imports: { limits: { ...DEFAULT_IMPORT_LIMITS, maxDraftChangeBytes: CHANGE_LIMIT, maxDraftsPerOrganization: DRAFT_LIMIT } },
    }),
  );

  it("refuses a replace that would make a cell longer than its column takes, and writes nothing (the 4-request kill's first step)", async () => {
    await discardAll(server);
    const draft = await draftOf(server, [{ data: 'a'.repeat(10_000), location: '1 Lygon Street, Carlton VIC 3053' }]);
    const before = (await draftRows(server, draft.uuid)).rows;
    const refused = await json<ErrorBody>(
      await post(server, draft.uuid, 'replace', { column: 'data', find: 'a', replace: 'a'.repeat(1000) }),
      400,
    );
    assert.equal(refused.error.code, 'VALIDATION_ERROR');
    assert.match(
      refused.error.message,
      /would make data 10,000,000 characters long; data holds at most 10,000 characters\. Nothing was changed/,
    );
    await assertUnchanged(server, draft.uuid, before);

    // The kind's own limit of each column: a location holds 1,000 characters.
    const location = await json<ErrorBody>(
      await post(server, draft.uuid, 'replace', { column: 'location', find: 'Street', replace: 'x'.repeat(1000) }),
      400,
    );
    assert.match(location.error.message, /location 1,026 characters long; location holds at most 1,000 characters/);
    await assertUnchanged(server, draft.uuid, before);

    // A replace that keeps within the column goes through.
    const done = await json<{ changed: number }>(
      await post(server, draft.uuid, 'replace', { column: 'data', find: 'a', replace: 'b' }),
      200,
    );
    assert.equal(done.changed, 1);
    assert.equal((await draftRows(server, draft.uuid)).rows[0]?.cells.data, 'b'.repeat(10_000));
  });

  it('lets a replace shorten a cell that is already longer than its column, never lengthen it', async () => {
    await discardAll(server);
    const draft = await draftOf(server, [{ location: `${'Long '.repeat(300)}Carlton VIC 3053` }]);
    const [row] = (await draftRows(server, draft.uuid)).rows;
    assert.match(row?.problem ?? '', /location: must be at most 1000 characters/);
    await json(await post(server, draft.uuid, 'replace', { column: 'location', find: 'Long ', replace: 'L ' }), 200);
    assert.equal((await draftRows(server, draft.uuid)).rows[0]?.cells.location?.length, 300 * 2 + 'Carlton VIC 3053'.length);
    const longer = await json<ErrorBody>(
      await post(server, draft.uuid, 'replace', { column: 'location', find: 'L ', replace: 'Long ' }),
      400,
    );
    assert.match(longer.error.message, /holds at most 1,000 characters/);
  });

  it('refuses an edit or a fill down past the column, naming the limit', async () => {
    await discardAll(server);
    const draft = await draftOf(server, [{ state: 'VIC', location: 'x'.repeat(1500) }, { state: '' }, { state: '' }]);
    const edit = await json<ErrorBody>(
      await server.request(`/api/import-drafts/uuid/${draft.uuid}/rows/2`, jsonBody({ column: 'state', value: 'V'.repeat(101) }, 'PATCH')),
      400,
    );
    assert.match(edit.error.message, /The new text of row 2 would make state 101 characters long; state holds at most 100 characters/);
    const before = (await draftRows(server, draft.uuid)).rows;
    const fill = await json<ErrorBody>(
      await post(server, draft.uuid, 'fill-down', { column: 'location', from_row_id: 1, to_row_id: 3 }),
      400,
    );
    assert.match(fill.error.message, /Filling down into row 2 would make location 1,500 characters long; location holds at most 1,000/);
    await assertUnchanged(server, draft.uuid, before);
  });

  it('refuses a change that would add more text than one change may, and writes nothing', async () => {
    await discardAll(server);
    // 100 rows of 3,000 characters: doubling them adds 300 KB, past the 256 KB this server allows.
    const draft = await draftOf(
      server,
      Array.from({ length: 100 }, () => ({ data: 'ab'.repeat(1500) })),
    );
    const before = (await draftRows(server, draft.uuid)).rows;
    const replace = await json<ErrorBody>(await post(server, draft.uuid, 'replace', { column: 'data', find: 'ab', replace: 'abab' }), 400);
    assert.match(
      replace.error.message,
      /^This replace would add more text to the draft than one change may: at most 0\.25 MB \(serve --max-draft-change-mb\)\. Nothing was changed/,
    );
    await assertUnchanged(server, draft.uuid, before);

    // Filling down the same data changes nothing; 9,000 characters into 99 rows of 3,000 would add 594 KB.
    assert.equal(
      (
        await json<{ changed: number }>(
          await post(server, draft.uuid, 'fill-down', { column: 'data', from_row_id: 1, to_row_id: 100 }),
          200,
        )
      ).changed,
      0,
    );
    await json(
      await server.request(`/api/import-drafts/uuid/${draft.uuid}/rows/1`, jsonBody({ column: 'data', value: 'c'.repeat(9000) }, 'PATCH')),
      200,
    );
    const fill = await json<ErrorBody>(
      await post(server, draft.uuid, 'fill-down', { column: 'data', from_row_id: 1, to_row_id: 100 }),
      400,
    );
    assert.match(fill.error.message, /^This fill down would add more text to the draft than one change may/);
    assert.equal((await draftRows(server, draft.uuid)).rows[1]?.cells.data, 'ab'.repeat(1500), 'nothing was filled');
  });

  it('keeps at most the configured number of drafts per organization', async () => {
    await discardAll(server);
    for (let i = 0; i < DRAFT_LIMIT; i++) await draftOf(server, [{ name: `Draft ${i}` }]);
    const refused = await json<ErrorBody>(
      await server.request('/api/import-drafts', jsonBody({ kind: 'qrcodes', rows: [{ values: { name: 'One more' } }] })),
      400,
    );
    assert.match(
      refused.error.message,
      /keeps 3 import drafts, the most it may \(3 drafts \(serve --max-drafts\)\)\. Import or discard a draft first/,
    );
    const list = await json<{ data: DraftBody[] }>(await server.request('/api/import-drafts'), 200);
    assert.equal(list.data.length, DRAFT_LIMIT, 'nothing was written');
    const first = list.data[0];
    assert.ok(first);
    assert.equal((await server.request(`/api/import-drafts/uuid/${first.uuid}`, { method: 'DELETE' })).status, 204);
    await draftOf(server, [{ name: 'After a discard' }]);
  });

  it('refuses NUL and broken characters in the text a draft would store', async () => {
    await discardAll(server);
    const draft = await draftOf(server, [{ name: 'Depot' }]);
    const raw = (method: string, path: string, body: string) =>
      server.request(path, { method, headers: { 'content-type': 'application/json' }, body });
    const nul = await json<ErrorBody>(
      await raw('PATCH', `/api/import-drafts/uuid/${draft.uuid}/rows/1`, '{"column":"name","value":"De\\u0000pot"}'),
      400,
    );
    assert.match(nul.error.details?.[0]?.message ?? '', /NUL character \(U\+0000\)/);
    const lone = await json<ErrorBody>(
      await raw('POST', `/api/import-drafts/uuid/${draft.uuid}/replace`, '{"column":"name","find":"p","replace":"\\ud800"}'),
      400,
    );
    assert.match(lone.error.details?.[0]?.message ?? '', /broken character/);
    const created = await json<ErrorBody>(
      await raw('POST', '/api/import-drafts', '{"kind":"qrcodes","rows":[{"values":{"name":"a\\u0000b"}}]}'),
      400,
    );
    assert.match(created.error.details?.[0]?.message ?? '', /NUL/);
    assert.equal((await draftRows(server, draft.uuid)).rows[0]?.cells.name, 'Depot');
    // A whole emoji (a valid surrogate pair) is text like any other.
    await json(await raw('PATCH', `/api/import-drafts/uuid/${draft.uuid}/rows/1`, '{"column":"name","value":"Depot \\ud83d\\ude9a"}'), 200);
  });

  it("cleans a NUL and a broken character out of an import's stored excluded row, and says so on the row", async () => {
    await discardAll(server);
    const task = await importFile(server, '/api/qrcodes/bulk', 'name,location\nYard,"2 High Street, Nowhere VIC"\n');
    // The stored row as an import of an older version could keep it.
    server.ctx.db.sqlite
      .prepare('update import_excluded_rows set cells = ? where task_uuid = ?')
      .run(JSON.stringify(['Ya\u0000rd\uD800', '2 High Street, Nowhere VIC']), task.uuid);
    const draft = await openDraft(server, task.uuid);
    const [row] = (await draftRows(server, draft.uuid)).rows;
    assert.equal(row?.cells.name, 'Yard\uFFFD');
    assert.match(
      row?.problem ?? '',
      /could not be located.*\(Its text held NUL characters or broken characters, which cell text cannot hold: the draft removed the NULs and shows each broken character as �\.\)$/,
    );
    assert.equal(row?.problem_column, 'location', 'the problem is still about its column');
  });

  it('does not read a row stored before the bounds: a page shows it as too large, edits and imports leave it, delete takes it out', async () => {
    await discardAll(server);
    const draft = await draftOf(server, [
      { name: 'Huge', location: '1 Lygon Street, Carlton VIC 3053' },
      { name: 'Small', location: '' },
    ]);
    // A draft of an older version: one cell of 20 million characters, written before any bound.
    const huge = JSON.stringify({ name: 'Huge', data: 'a'.repeat(20_000_000) });
    server.ctx.db.sqlite
      .prepare('update import_draft_rows set cells = ?, search_text = ? where draft_uuid = ? and row_id = 1')
      .run(huge, huge.toLowerCase(), draft.uuid);

    const res = await server.request(`/api/import-drafts/uuid/${draft.uuid}/rows`);
    const text = await res.text();
    assert.equal(res.status, 200);
    assert.ok(text.length < 10_000, `the page is small (${text.length} characters)`);
    const page = JSON.parse(text) as { rows: DraftRowBody[] };
    assert.deepEqual(page.rows[0]?.cells, {});
    assert.match(page.rows[0]?.problem ?? '', /This row holds 19,532 KB of text, more than a draft row may hold \(64 KB\).*delete it/);
    assert.equal(page.rows[1]?.cells.name, 'Small');

    const edit = await json<ErrorBody>(
      await server.request(`/api/import-drafts/uuid/${draft.uuid}/rows/1`, jsonBody({ column: 'name', value: 'x' }, 'PATCH')),
      409,
    );
    assert.match(edit.error.message, /Row 1: This row holds 19,532 KB/);
    const replaced = await json<{ changed: number }>(
      await post(server, draft.uuid, 'replace', { column: 'data', find: 'a', replace: 'b' }),
      200,
    );
    assert.equal(replaced.changed, 0, 'the huge row is not read');
    const search = await draftRows(server, draft.uuid, '?search=aaaa');
    assert.equal(search.total, 0);
    const download = await (await server.request(`/api/import-drafts/uuid/${draft.uuid}/download?format=csv`)).text();
    assert.ok(download.includes('Small') && !download.includes('aaaa'), 'the download leaves it out');

    await json(await post(server, draft.uuid, 'delete-rows', { row_ids: [1] }), 200);
    const left = await draftRows(server, draft.uuid);
    assert.deepEqual(
      left.rows.map((r) => r.cells.name),
      ['Small'],
    );
  });
});
