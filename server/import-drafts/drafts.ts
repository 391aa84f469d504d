import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Principal } from '../auth/principal.ts';
import { requireOrganization } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { matchHeader, recordFromObject, withColumnAliases } from '../imports/engine/columns.ts';
import { fileLayoutOf, withFileLayout } from '../imports/engine/file-layout.ts';
import { UploadLease } from '../imports/intake/upload.ts';
import { importKinds, isImportKindId, loadKind, taskTypeOf } from '../imports/kinds.ts';
import { resolveImportHandler } from '../import-handlers/handlers.ts';
import type { ImportKind } from '../imports/kind.ts';
import { csvChunks } from '../imports/reports/table-download.ts';
import type { ImportKindId } from '../imports/schemas.ts';
import { UPLOADS_DIR } from '../imports/settings.ts';
import { excludedRowsPage, findJob, jobFromRow, storedRowNumber } from '../imports/workers/job-store.ts';
import { findTask } from '../tasks/store.ts';
import { nowIso } from '../time.ts';
import {
  addedBytes,
  cleanText,
  MAX_ROW_READ_BYTES,
  measureReplace,
  requireCellFits,
  requireChangeFits,
  requireDraftRoom,
} from './bounds.ts';
import { cellText, problemColumn, searchText } from './problems.ts';
import type { CreateDraftBody, Draft, DraftRow, DraftRowsQuery, ReplaceBody } from './schemas.ts';
import { type DraftRecord, type DraftRowRecord, draftStore, type NewDraftRow, type WrittenRow } from './store.ts';
import { CHUNK_ROWS, yieldToLoop } from './draft-queue.ts';
import { writeNow } from '../db/write-now.ts';

/** Changed rows checked again at once by a replace or fill down; the import checks the rest. */
export const RECHECK_LIMIT = 1000;
const PAGE = 1000;
/** How long an import of the fixed rows may take to start (write its file, create its task) before a draft still waiting for it is opened again. */
const STARTING_IMPORT_MS = 60_000;

type Cells = Record<string, string>;

export interface LastImport {
  task_uuid: string;
  status: string;
  imported: number;
  excluded: number;
  message: string;
}

/** Hidden drafts (ready = 0) this process is writing or removing now; any other hidden draft was left by a stopped server. */
const busyDrafts = new Set<string>();

/**
 * A draft of the caller's organization (a draft of another is not found), with the end of its
 * import of the fixed rows taken in, and an edit a stopped server left half written undone.
 * Called in the draft's queue (draft-queue.ts), as every operation on a draft is.
 */
export async function requireDraft(ctx: AppContext, principal: Principal, uuid: string): Promise<DraftRecord> {
  const store = draftStore(ctx.db.sqlite);
  const draft = store.find(uuid);
  if (!draft || draft.organization_uuid !== principal.organizationUuid) throw notFound(`Import draft ${uuid}`);
  const last = store.lastEdit(uuid);
  if (last?.complete === 0) await undoInChunks(ctx, uuid, last.seq);
  return settleFinishedImport(ctx, draft);
}

/** Puts an edit's rows back a chunk at a time, then forgets the edit; the edit stays incomplete until then. */
async function undoInChunks(ctx: AppContext, uuid: string, seq: number): Promise<number> {
  const store = draftStore(ctx.db.sqlite);
  await writeNow(ctx.db, () => store.markIncomplete(uuid, seq));
  let changed = 0;
  for (;;) {
    const restored = await writeNow(ctx.db, () => store.undoChunk(uuid, seq, CHUNK_ROWS));
    if (restored === null) break;
    changed += restored;
    await yieldToLoop();
  }
  await writeNow(ctx.db, () => store.undoEdit(uuid, seq));
  return changed;
}

/** Hides a draft, then deletes its history and rows a chunk at a time, then the draft. */
async function removeDraft(ctx: AppContext, uuid: string): Promise<void> {
  const store = draftStore(ctx.db.sqlite);
  busyDrafts.add(uuid);
  try {
    await writeNow(ctx.db, () => store.hide(uuid));
    while ((await writeNow(ctx.db, () => store.deleteSome(uuid, CHUNK_ROWS))) > 0) await yieldToLoop();
    await writeNow(ctx.db, () => store.remove(uuid));
  } finally {
    busyDrafts.delete(uuid);
  }
}

/** Removes the organization's drafts that a stopped server left half written or half removed. */
async function removeUnfinishedDrafts(ctx: AppContext, organizationUuid: string): Promise<void> {
  for (const uuid of draftStore(ctx.db.sqlite).unfinished(organizationUuid)) {
    if (!busyDrafts.has(uuid)) await removeDraft(ctx, uuid);
  }
}

function kindOf(draft: DraftRecord): Promise<ImportKind> {
  return loadKind(draft.kind);
}

/** Why a row stored before the bounds is not read: too large to show, change or import. */
function tooLargeProblem(bytes: number): string {
  const kb = (n: number) => `${Math.ceil(n / 1024).toLocaleString('en-US')} KB`;
  return (
    `This row holds ${kb(bytes)} of text, more than a draft row may hold (${kb(MAX_ROW_READ_BYTES)}); it was stored before that limit. ` +
    'It cannot be shown, changed or imported here: delete it, and fix the row in your file.'
  );
}

/** A row's cells, or a 409 when it is too large to read (rows stored before the bounds). */
function cellsOf(row: DraftRowRecord): Cells {
  if (row.cells === null) throw new ApiError('CONFLICT', `Row ${row.row_id}: ${tooLargeProblem(row.cells_bytes)}`);
  return JSON.parse(row.cells) as Cells;
}

function toRow(row: DraftRowRecord): DraftRow {
  const tooLarge = row.cells === null;
  return {
    row_id: row.row_id,
    row_number: row.row_number,
    cells: row.cells === null ? {} : (JSON.parse(row.cells) as Cells),
    problem: tooLarge ? tooLargeProblem(row.cells_bytes) : row.problem,
    problem_column: tooLarge ? null : row.problem_column,
    state: row.state === 'imported' ? 'imported' : 'open',
    checked: row.checked === 1,
  };
}

export async function describeDraft(ctx: AppContext, draft: DraftRecord): Promise<Draft> {
  const current = await settleFinishedImport(ctx, draft);
  const store = draftStore(ctx.db.sqlite);
  const counts = store.counts(current.uuid);
  const last = store.lastEdit(current.uuid);
  const kind = await kindOf(current);
  return {
    uuid: current.uuid,
    organization_uuid: current.organization_uuid,
    // kindOf refused a kind this server does not import.
    kind: current.kind as ImportKindId,
    source_task_uuid: current.source_task_uuid,
    columns: [...kind.columns],
    status: current.status,
    rows: counts.rows,
    rows_with_problems: counts.problems,
    rows_imported: counts.imported,
    can_undo: last !== undefined && current.status === 'open',
    last_action: last?.action ?? null,
    import_task_uuid: current.import_task_uuid,
    last_import: current.last_import ? (JSON.parse(current.last_import) as LastImport) : null,
    created_on: current.created_on,
    updated_on: current.updated_on,
  };
}

/** A finished import task's excluded rows as the kind's cells (a file's row under its header, or a JSON element). */
async function excludedRowsOf(
  ctx: AppContext,
  taskUuid: string,
  kind: ImportKind,
  job: ReturnType<typeof jobFromRow>,
  headers: string[] | null,
) {
  const columns = withColumnAliases(kind, job.options);
  const json = job.format === 'json';
  const mapping = json ? [] : matchHeader(columns, headers ?? [...kind.columns]).mapping;
  const keyMap = new Map<string, string | null>();
  const rows: NewDraftRow[] = [];
  let cleaned = false;
  const text = (value: unknown) => {
    const clean = cleanText(cellText(value));
    cleaned ||= clean.cleaned;
    return clean.text;
  };
  for (let after = -1; ; ) {
    const page = await excludedRowsPage(ctx.db.kysely, taskUuid, after, PAGE);
    if (page.length === 0) break;
    for (const stored of page) {
      const raw = JSON.parse(stored.cells) as unknown;
      const cells: Cells = Object.fromEntries(kind.columns.map((c) => [c, '']));
      if (json) {
        if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
          for (const [column, value] of Object.entries(recordFromObject(columns, keyMap, raw as Record<string, unknown>)))
            cells[column] = text(value);
        }
      } else if (Array.isArray(raw)) {
        mapping.forEach((column, i) => {
          if (column) cells[column] = text(raw[i]);
        });
      }
      rows.push(newRow(cells, storedRowNumber(stored), stored.error, kind.columns, cleaned ? CLEANED_NOTE : undefined));
      cleaned = false;
    }
    after = page[page.length - 1]?.row_index ?? after;
    // The store's awaits are synchronous underneath (better-sqlite3): let other requests in between pages.
    await yieldToLoop();
  }
  return rows;
}

/** Said on a row whose stored text was not valid cell text (an import from before the bounds). */
const CLEANED_NOTE =
  '(Its text held NUL characters or broken characters, which cell text cannot hold: the draft removed the NULs and shows each broken character as �.)';

function newRow(cells: Cells, rowNumber: number | null, problem: string | null, columns: readonly string[], note?: string): NewDraftRow {
  return {
    row_number: rowNumber,
    cells: JSON.stringify(cells),
    search_text: searchText(cells),
    problem: note && problem ? `${problem} ${note}` : (problem ?? note ?? null),
    problem_column: problemColumn(problem, columns, cells),
  };
}

/** Opens a draft: from a finished import's excluded rows (the open draft of that import if it has one), or from rows given (a preview's). */
export async function createDraft(
  ctx: AppContext,
  principal: Principal,
  body: CreateDraftBody,
): Promise<{ draft: Draft; created: boolean }> {
  const store = draftStore(ctx.db.sqlite);
  /**
   * Stores the new draft with its rows: a few in one transaction; more in chunks of CHUNK_ROWS
   * with the event loop free between them, the draft hidden (ready = 0) until the last is written
   * and removed if one fails.
   */
  const save = async (
    fields: Pick<DraftRecord, 'organization_uuid' | 'kind' | 'source_task_uuid' | 'options'>,
    rows: Parameters<typeof store.insertRows>[1],
  ) => {
    await removeUnfinishedDrafts(ctx, fields.organization_uuid);
    const room = () => requireDraftRoom(ctx.imports.settings.limits, store.countDrafts(fields.organization_uuid));
    const now = nowIso();
    const record: DraftRecord = {
      uuid: randomUUID(),
      status: 'open',
      import_task_uuid: null,
      last_import: null,
      created_by_uuid: principal.keyUuid,
      ...fields,
      created_on: now,
      updated_on: now,
      row_count: 0,
      problem_count: 0,
      imported_count: 0,
      ready: rows.length <= CHUNK_ROWS ? 1 : 0,
    };
    if (record.ready === 1) {
      await writeNow(ctx.db, () => {
        room();
        store.insertDraft(record);
        store.insertRows(record.uuid, rows);
      });
    } else {
      busyDrafts.add(record.uuid);
      try {
        await writeNow(ctx.db, () => {
          room();
          store.insertDraft(record);
        });
        for (let first = 0; first < rows.length; first += CHUNK_ROWS) {
          await yieldToLoop();
          await writeNow(ctx.db, () => store.insertRows(record.uuid, rows.slice(first, first + CHUNK_ROWS), first + 1));
        }
        await writeNow(ctx.db, () => store.markReady(record.uuid));
      } catch (error) {
        await removeDraft(ctx, record.uuid).catch(() => undefined);
        throw error;
      } finally {
        busyDrafts.delete(record.uuid);
      }
    }
    return { draft: await describeDraft(ctx, record), created: true };
  };
  if ('background_task_uuid' in body) {
    const uuid = body.background_task_uuid;
    const task = await findTask(ctx.db.kysely, uuid);
    const stored = task && task.organization_uuid === principal.organizationUuid ? await findJob(ctx.db.kysely, uuid) : undefined;
    if (!task || !stored || !isImportKindId(stored.kind)) throw notFound(`Import task ${uuid}`);
    const existing = store.list(task.organization_uuid, task.uuid)[0];
    if (existing) return { draft: await describeDraft(ctx, existing), created: false };
    if (task.status === 'PENDING' || task.status === 'PROCESSING') {
      throw new ApiError('CONFLICT', 'The import is still running; open its excluded rows when the task is COMPLETED or FAILED.');
    }
    if (stored.excluded_count === 0) {
      throw new ApiError('VALIDATION_ERROR', `Import task ${uuid} excluded no rows: there is nothing to fix.`, [
        { path: 'background_task_uuid', message: 'the import excluded no rows' },
      ]);
    }
    requireDraftRoom(ctx.imports.settings.limits, store.countDrafts(task.organization_uuid));
    const job = jobFromRow(stored);
    const kind = await loadKind(job.kind);
    const rows = await excludedRowsOf(ctx, uuid, kind, job, stored.headers ? (JSON.parse(stored.headers) as string[]) : null);
    return save(
      { organization_uuid: task.organization_uuid, kind: job.kind, source_task_uuid: task.uuid, options: JSON.stringify(job.options) },
      rows,
    );
  }
  const organization = body.organization_uuid ?? principal.organizationUuid;
  requireOrganization(principal, organization);
  requireDraftRoom(ctx.imports.settings.limits, store.countDrafts(organization));
  const kind = await loadKind(body.kind);
  const unknown = new Set<string>();
  const given = body.rows.map((row) => {
    const cells: Cells = Object.fromEntries(kind.columns.map((c) => [c, '']));
    for (const [column, value] of Object.entries(row.values)) {
      if (kind.columns.includes(column)) cells[column] = cellText(value);
      else unknown.add(column);
    }
    return { row_number: row.row_number ?? null, cells };
  });
  if (unknown.size > 0) {
    const message = `${[...unknown].join(', ')} ${unknown.size > 1 ? 'are not columns' : 'is not a column'} of ${body.kind}; use its columns: ${kind.columns.join(', ')}.`;
    throw new ApiError('VALIDATION_ERROR', message, [{ path: 'rows', message }]);
  }
  const options = importKinds[body.kind].previewOptions(await resolveImportHandler(ctx.db.kysely, organization, undefined));
  const { verdicts } = await ctx.imports.checkDraftRows({
    kind: body.kind,
    organizationUuid: organization,
    options,
    rows: given.map((row, index) => ({ index, cells: kind.columns.map((c) => row.cells[c] ?? '') })),
  });
  const rows = given.map((row, i) => newRow(row.cells, row.row_number, verdicts[i]?.problem ?? null, kind.columns));
  return save({ organization_uuid: organization, kind: body.kind, source_task_uuid: null, options: JSON.stringify(options) }, rows);
}

function requireOpen(draft: DraftRecord): void {
  if (draft.status === 'importing') {
    throw new ApiError('CONFLICT', 'The fixed rows are being imported; wait until the import ends, then edit the rows it excluded again.');
  }
}

function requireColumn(kind: ImportKind, column: string): void {
  if (!kind.columns.includes(column)) {
    const message = `${column} is not a column of this draft; use one of ${kind.columns.join(', ')}.`;
    throw new ApiError('VALIDATION_ERROR', message, [{ path: 'column', message }]);
  }
}

/** Each row's verdict, checked in the upload reader's worker with the import's own checks. */
async function check(ctx: AppContext, draft: DraftRecord, kind: ImportKind, rows: { row_id: number; cells: Cells }[]) {
  if (rows.length === 0) return new Map<number, string | null>();
  const { verdicts } = await ctx.imports.checkDraftRows({
    kind: draft.kind as ImportKindId,
    organizationUuid: draft.organization_uuid,
    options: JSON.parse(draft.options) as Record<string, unknown>,
    rows: rows.map((row) => ({ index: row.row_id, cells: kind.columns.map((c) => row.cells[c] ?? '') })),
  });
  return new Map(verdicts.map((v) => [v.index, v.problem]));
}

/**
 * Gets the row checks ready while the grid opens: the upload reader's worker started, the kind
 * and the geocoder loaded (seconds for the shipped gazetteer), so the first edit answers as fast as the next.
 */
export function warmChecks(ctx: AppContext, draft: DraftRecord): void {
  if (draft.status !== 'open' || !isImportKindId(draft.kind)) return;
  void ctx.imports
    .checkDraftRows({ kind: draft.kind, organizationUuid: draft.organization_uuid, options: {}, rows: [] })
    .catch(() => undefined);
}

/** Changes one cell, checks the row again and keeps the change (undo puts the row back). */
export async function editCell(ctx: AppContext, draft: DraftRecord, rowId: number, column: string, value: string) {
  requireOpen(draft);
  const kind = await kindOf(draft);
  requireColumn(kind, column);
  const store = draftStore(ctx.db.sqlite);
  const row = store.row(draft.uuid, rowId);
  if (!row) throw notFound(`Row ${rowId} of import draft ${draft.uuid}`);
  if (row.state !== 'open') throw new ApiError('CONFLICT', `Row ${rowId} was imported already; there is nothing to fix in it.`);
  const before = cellsOf(row);
  requireCellFits(kind, column, value.length, before[column]?.length ?? 0, `The new text of row ${rowId}`);
  const cells = { ...before, [column]: value };
  const started = performance.now();
  const problem = (await check(ctx, draft, kind, [{ row_id: rowId, cells }])).get(rowId) ?? null;
  const checkMs = Math.round((performance.now() - started) * 10) / 10;
  const changed: DraftRowRecord & WrittenRow = {
    ...row,
    cells: JSON.stringify(cells),
    search_text: searchText(cells),
    problem,
    problem_column: problemColumn(problem, kind.columns, cells),
    checked: 1,
  };
  await writeNow(ctx.db, () => {
    store.beginEdit(draft.uuid, `Edit ${column} of row ${rowId}`, 1).keep(rowId);
    store.rowWriter()(draft.uuid, changed);
  });
  return { row: toRow(changed), check_ms: checkMs };
}

/** Text a change goes through between two turns of the event loop (a chunk of long cells takes more than one turn). */
const TEXT_PER_TURN = 2 * 1024 * 1024;

/** Items in runs of about TEXT_PER_TURN bytes (at least one item a run). */
function byText<T>(items: readonly T[], bytes: (item: T) => number): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let size = 0;
  for (const item of items) {
    if (run.length > 0 && size + bytes(item) > TEXT_PER_TURN) {
      runs.push(run);
      run = [];
      size = 0;
    }
    run.push(item);
    size += bytes(item);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** Lets the event loop in once every TEXT_PER_TURN bytes of cells gone through. */
function pauser(): (bytes: number) => Promise<void> {
  let since = 0;
  return async (bytes) => {
    since += bytes;
    if (since < TEXT_PER_TURN) return;
    since = 0;
    await yieldToLoop();
  };
}

/**
 * Changes open rows (after from_row_id, up to until_row_id) as one edit, a chunk of CHUNK_ROWS at
 * a time with the event loop free between chunks: `change` gives a row's new cells, or null to
 * leave it. The first RECHECK_LIMIT changed rows are checked again now, the rest left for the
 * import. The edit is incomplete until its last chunk is written; if a chunk fails, the chunks
 * written are undone (a stopped server's are undone when the draft is next read: requireDraft).
 * The draft's queue keeps other requests about it waiting meanwhile.
 */
async function changeInChunks(
  ctx: AppContext,
  draft: DraftRecord,
  kind: ImportKind,
  action: string,
  range: { after: number; until?: number },
  change: (cells: Cells, rowId: number) => Cells | null,
): Promise<{ changed: number; rechecked: number; draft: Draft }> {
  const store = draftStore(ctx.db.sqlite);
  let seq: number | undefined;
  let changed = 0;
  let rechecked = 0;
  try {
    for (let after = range.after; ; ) {
      const page = store.rowsAfter(draft.uuid, after, CHUNK_ROWS, range.until);
      const last = page[page.length - 1];
      if (!last) break;
      after = last.row_id;
      const changes: { row: DraftRowRecord; cells: Cells }[] = [];
      const pause = pauser();
      for (const row of page) {
        const cells = change(cellsOf(row), row.row_id);
        if (cells) changes.push({ row, cells });
        await pause(row.cells_bytes);
      }
      if (changes.length === 0) continue;
      const verdicts = await check(
        ctx,
        draft,
        kind,
        changes.slice(0, Math.max(0, RECHECK_LIMIT - rechecked)).map((c) => ({ row_id: c.row.row_id, cells: c.cells })),
      );
      // Written a slice of about TEXT_PER_TURN at a time, with the event loop let in between (the edit is complete only at the end).
      for (const slice of byText(changes, (c) => c.row.cells_bytes)) {
        await writeNow(ctx.db, () => {
          if (seq === undefined) seq = store.beginEdit(draft.uuid, action, 0, false).seq;
          const keep = store.keeper(draft.uuid, seq);
          const write = store.rowWriter();
          for (const { row, cells } of slice) {
            keep(row.row_id);
            const checked = verdicts.has(row.row_id);
            const problem = checked ? (verdicts.get(row.row_id) ?? null) : row.problem;
            write(draft.uuid, {
              ...row,
              cells: JSON.stringify(cells),
              search_text: searchText(cells),
              problem,
              problem_column: problemColumn(problem, kind.columns, cells),
              checked: checked ? 1 : 0,
            });
          }
        });
        await yieldToLoop();
      }
      changed += changes.length;
      rechecked += verdicts.size;
    }
    const edit = seq;
    if (edit !== undefined) await writeNow(ctx.db, () => store.completeEdit(draft.uuid, edit, changed));
  } catch (error) {
    if (seq !== undefined) await undoInChunks(ctx, draft.uuid, seq);
    throw error;
  }
  return { changed, rechecked, draft: await describeDraft(ctx, draft) };
}

/**
 * Measures a change over the rows it would touch before any is written: `measure` gives the bytes
 * a row's change adds (null: the row is left as it is) and refuses a cell past its column's length
 * (requireCellFits). A 400 once the bytes added pass the limit; nothing is written either way.
 */
async function requireChangeBounded(
  ctx: AppContext,
  draft: DraftRecord,
  range: { after: number; until?: number },
  what: { action: string; path: string },
  measure: (cells: Cells, rowId: number) => number | null,
): Promise<void> {
  const store = draftStore(ctx.db.sqlite);
  let added = 0;
  for (let after = range.after; ; ) {
    const page = store.rowsAfter(draft.uuid, after, CHUNK_ROWS, range.until);
    const last = page[page.length - 1];
    if (!last) return;
    after = last.row_id;
    const pause = pauser();
    for (const row of page) {
      added += measure(cellsOf(row), row.row_id) ?? 0;
      await pause(row.cells_bytes);
    }
    requireChangeFits(ctx.imports.settings.limits, added, what.action, what.path);
    await yieldToLoop();
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Find and replace in one column over every open row, as one edit. */
export async function replaceInColumn(ctx: AppContext, draft: DraftRecord, body: ReplaceBody) {
  requireOpen(draft);
  const kind = await kindOf(draft);
  requireColumn(kind, body.column);
  const flags = body.match_case ? 'g' : 'gi';
  const pattern = new RegExp(body.whole_cell ? `^${escapeRegExp(body.find)}$` : escapeRegExp(body.find), flags);
  const verb = `Replace "${body.find}" with "${body.replace}" in ${body.column}`;
  const find = { find: body.find, matchCase: body.match_case, wholeCell: body.whole_cell };
  await requireChangeBounded(ctx, draft, { after: 0 }, { action: 'This replace', path: 'replace' }, (cells, rowId) => {
    const before = cells[body.column] ?? '';
    const result = measureReplace(before, pattern, body.replace, find);
    if (result.matches === 0) return null;
    requireCellFits(kind, body.column, result.chars, before.length, `Replacing "${body.find}" in row ${rowId}`);
    return result.addedBytes;
  });
  // Every row was measured just now (the draft's queue keeps other changes out): no result is longer than its column.
  return changeInChunks(ctx, draft, kind, verb, { after: 0 }, (cells) => {
    const before = cells[body.column] ?? '';
    // A function gives the replacement as is ("$" is no pattern), and V8 replaces several times faster with it than with a string.
    const after = before.replace(pattern, () => body.replace);
    return after !== before ? { ...cells, [body.column]: after } : null;
  });
}

/** Copies a row's cell into the rows below it, up to another row, as one edit. */
export async function fillDown(ctx: AppContext, draft: DraftRecord, body: { column: string; from_row_id: number; to_row_id: number }) {
  requireOpen(draft);
  const kind = await kindOf(draft);
  requireColumn(kind, body.column);
  if (body.to_row_id < body.from_row_id) {
    const message = 'to_row_id must be the same row or below from_row_id (fill down copies a cell into the rows under it).';
    throw new ApiError('VALIDATION_ERROR', message, [{ path: 'to_row_id', message }]);
  }
  const store = draftStore(ctx.db.sqlite);
  const source = store.row(draft.uuid, body.from_row_id);
  if (!source) throw notFound(`Row ${body.from_row_id} of import draft ${draft.uuid}`);
  const value = cellsOf(source)[body.column] ?? '';
  const range = { after: body.from_row_id, until: body.to_row_id };
  await requireChangeBounded(ctx, draft, range, { action: 'This fill down', path: 'to_row_id' }, (cells, rowId) => {
    const before = cells[body.column] ?? '';
    if (before === value) return null;
    requireCellFits(kind, body.column, value.length, before.length, `Filling down into row ${rowId}`);
    return addedBytes(before, value);
  });
  return changeInChunks(ctx, draft, kind, `Fill down ${body.column} from row ${source.row_id}`, range, (cells) =>
    (cells[body.column] ?? '') !== value ? { ...cells, [body.column]: value } : null,
  );
}

/** Takes rows out of the draft (they are not imported); undo brings them back. */
export async function deleteRows(ctx: AppContext, draft: DraftRecord, rowIds: number[]) {
  requireOpen(draft);
  const store = draftStore(ctx.db.sqlite);
  const rows = [...new Set(rowIds)].flatMap((id) => {
    const row = store.row(draft.uuid, id);
    return row && row.state === 'open' ? [row] : [];
  });
  if (rows.length > 0) {
    await writeNow(ctx.db, () => {
      const { keep } = store.beginEdit(
        draft.uuid,
        rows.length === 1 ? `Delete row ${rows[0]?.row_id}` : `Delete ${rows.length} rows`,
        rows.length,
      );
      const remove = store.rowDeleter();
      for (const row of rows) {
        keep(row.row_id);
        remove(draft.uuid, row.row_id);
      }
    });
  }
  return { changed: rows.length, rechecked: 0, draft: await describeDraft(ctx, draft) };
}

export async function undoLastEdit(ctx: AppContext, draft: DraftRecord) {
  requireOpen(draft);
  const store = draftStore(ctx.db.sqlite);
  const last = store.lastEdit(draft.uuid);
  if (!last) throw new ApiError('CONFLICT', 'There is nothing to undo: the draft has no edits since it was opened or last imported.');
  const changed = await undoInChunks(ctx, draft.uuid, last.seq);
  return { changed, rechecked: 0, draft: await describeDraft(ctx, draft) };
}

export async function discardDraft(ctx: AppContext, draft: DraftRecord): Promise<void> {
  requireOpen(draft);
  await removeDraft(ctx, draft.uuid);
}

/** A row with something in it: an empty row is neither downloaded nor imported (the import would skip it). */
const hasText = (cells: Cells) => Object.values(cells).some((value) => value.trim() !== '');

/** The open rows that hold any text, as cells of the kind's columns. */
export function* fixedRows(ctx: AppContext, draft: DraftRecord, columns: readonly string[]): Generator<string[]> {
  const store = draftStore(ctx.db.sqlite);
  for (let after = 0; ; ) {
    const page = store.rowsAfter(draft.uuid, after, PAGE);
    if (page.length === 0) return;
    for (const row of page) {
      const cells = cellsOf(row);
      if (hasText(cells)) yield columns.map((c) => cells[c] ?? '');
    }
    after = page[page.length - 1]?.row_id ?? after;
  }
}

/**
 * The options of the import of a draft's rows: the original import's (its import handler, its
 * dates' order), reading the file the draft writes, whatever sheet, header row and mapping the
 * original file had: the kind's columns by name, on row 1.
 */
function fixedRowsOptions(draft: DraftRecord, kind: ImportKind): Record<string, unknown> {
  const options = JSON.parse(draft.options) as Record<string, unknown>;
  const { dateOrders } = fileLayoutOf(options);
  return withFileLayout(options, {
    headerRow: 1,
    mapping: Object.fromEntries(kind.columns.map((column) => [column, column])),
    ...(dateOrders ? { dateOrders } : {}),
  });
}

/**
 * Starts the kind's own import (background) of the open rows alone, linked to the import they
 * came from (metadata.fixes_task_uuid). Each row is marked with its index in that import, so
 * that once it ends the draft shows what became of each (settleFinishedImport).
 */
export async function importFixedRows(ctx: AppContext, principal: Principal, draft: DraftRecord) {
  requireOpen(draft);
  const kind = await kindOf(draft);
  const store = draftStore(ctx.db.sqlite);
  const rows = store.openRows(draft.uuid).filter((row) => hasText(cellsOf(row)));
  if (rows.length === 0) {
    throw new ApiError('CONFLICT', 'The draft has no rows left to import: every row was imported, deleted or is empty.');
  }
  const uploadFile = path.join(UPLOADS_DIR, `${randomUUID()}.upload`);
  const lease = new UploadLease(ctx.imports.settings.dataDir, uploadFile);
  try {
    await pipeline(csvChunks(kind.columns, fixedRows(ctx, draft, kind.columns)), fs.createWriteStream(lease.path, { mode: 0o600 }));
    await writeNow(ctx.db, () => {
      const mark = store.markForImport();
      rows.forEach((row, index) => {
        mark(draft.uuid, row.row_id, index);
      });
      store.forgetEdits(draft.uuid);
      store.update(draft.uuid, { status: 'importing', import_task_uuid: null });
    });
    let task: Awaited<ReturnType<typeof ctx.imports.submit>>['task'];
    try {
      ({ task } = await ctx.imports.submit({
        kind: draft.kind as ImportKindId,
        taskType: taskTypeOf(draft.kind, 'file'),
        source: 'file',
        format: 'csv',
        upload: lease,
        organizationUuid: draft.organization_uuid,
        createdByUuid: principal.keyUuid,
        metadata: {
          filename: `fixed-rows-${draft.source_task_uuid ?? draft.uuid}.csv`,
          import_type: 'csv',
          source: 'import_draft',
          import_draft_uuid: draft.uuid,
          ...(draft.source_task_uuid ? { fixes_task_uuid: draft.source_task_uuid } : {}),
        },
        mode: 'background',
        options: fixedRowsOptions(draft, kind),
      }));
    } catch (error) {
      await writeNow(ctx.db, () => {
        store.clearImportIndexes(draft.uuid);
        store.update(draft.uuid, { status: 'open' });
      });
      throw error;
    }
    await writeNow(ctx.db, () => store.update(draft.uuid, { import_task_uuid: task.uuid }));
    return task;
  } finally {
    await lease.release();
  }
}

/** An import of the fixed rows that ended: rows it wrote become imported, rows it excluded open again with their new problem. */
async function settleFinishedImport(ctx: AppContext, draft: DraftRecord): Promise<DraftRecord> {
  if (draft.status !== 'importing') return draft;
  if (!draft.import_task_uuid) {
    // The server stopped between marking the rows and starting their import: nothing started, the rows are open again.
    if (Date.now() - Date.parse(draft.updated_on) < STARTING_IMPORT_MS) return draft;
    const store = draftStore(ctx.db.sqlite);
    await writeNow(ctx.db, () => {
      store.clearImportIndexes(draft.uuid);
      store.update(draft.uuid, { status: 'open' });
    });
    return store.find(draft.uuid) ?? draft;
  }
  const taskUuid = draft.import_task_uuid;
  const task = await findTask(ctx.db.kysely, taskUuid);
  if (task && (task.status === 'PENDING' || task.status === 'PROCESSING')) return draft;
  const job = await findJob(ctx.db.kysely, taskUuid);
  const kind = await kindOf(draft);
  const excluded: { index: number; error: string }[] = [];
  for (let after = -1; ; ) {
    const page = await excludedRowsPage(ctx.db.kysely, taskUuid, after, PAGE);
    if (page.length === 0) break;
    for (const row of page) excluded.push({ index: row.row_index, error: row.error });
    after = page[page.length - 1]?.row_index ?? after;
    await yieldToLoop();
  }
  const store = draftStore(ctx.db.sqlite);
  const done = task?.status === 'COMPLETED' ? Number.MAX_SAFE_INTEGER : (job?.rows_done ?? 0);
  const failedMessage = task?.error_message ?? 'The import of the fixed rows is gone.';
  await writeNow(ctx.db, () => {
    const current = store.find(draft.uuid);
    if (current?.status !== 'importing') return;
    const settled = store.settleImport(draft.uuid, done);
    const reopen = store.reopenExcluded();
    for (const { index, error } of excluded) {
      const cells = store.cellsAtImportIndex(draft.uuid, index);
      reopen(draft.uuid, index, error, problemColumn(error, kind.columns, cells));
    }
    store.clearImportIndexes(draft.uuid);
    const last: LastImport = {
      task_uuid: taskUuid,
      status: task?.status ?? 'FAILED',
      imported: settled - excluded.length,
      excluded: excluded.length,
      message:
        task?.status === 'COMPLETED'
          ? excluded.length === 0
            ? 'Every fixed row was imported.'
            : `${excluded.length} rows were excluded again; fix them and import again.`
          : `What failed: ${failedMessage} The rows it did not import are open here again, with your fixes: import the fixed rows again, or download them (CSV or Excel) and import that file from Imports.`,
    };
    store.update(draft.uuid, { status: 'open', last_import: JSON.stringify(last) });
  });
  return store.find(draft.uuid) ?? draft;
}

export async function rowsPage(ctx: AppContext, draft: DraftRecord, query: DraftRowsQuery) {
  const current = await settleFinishedImport(ctx, draft);
  const page = draftStore(ctx.db.sqlite).page(current.uuid, query);
  return { total: page.total, offset: query.offset, rows: page.rows.map(toRow) };
}

export async function listDrafts(ctx: AppContext, principal: Principal, sourceTaskUuid: string | undefined) {
  const drafts = draftStore(ctx.db.sqlite).list(principal.organizationUuid, sourceTaskUuid);
  return { data: await Promise.all(drafts.map((d) => describeDraft(ctx, d))) };
}
