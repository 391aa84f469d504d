import type SQLite from 'better-sqlite3';
import type { ImportDraftRowTable, ImportDraftTable } from '../db/schema.ts';
import { nowIso } from '../time.ts';
import { MAX_ROW_READ_BYTES } from './bounds.ts';
import type { DraftRowsQuery } from './schemas.ts';

/** Edits kept for undo per draft; older ones are dropped. */
export const UNDO_DEPTH = 50;

export type DraftRecord = ImportDraftTable;
/** A row as read: its cells, or null when they are larger than a read takes in (MAX_ROW_READ_BYTES; rows stored before the bounds). */
export type DraftRowRecord = Omit<ImportDraftRowTable, 'draft_uuid' | 'import_index' | 'search_text' | 'cells'> & {
  cells: string | null;
  cells_bytes: number;
};
/** A row with its cells, as written. */
export type WrittenRow = Omit<ImportDraftRowTable, 'draft_uuid' | 'import_index' | 'row_number'>;

export interface NewDraftRow {
  row_number: number | null;
  cells: string;
  search_text: string;
  problem: string | null;
  problem_column: string | null;
}

/**
 * A row's columns as read. The cells of a row too large to read never reach the server's heap
 * (SQLite reads such a value once to measure it and frees it at once: about its size, for the
 * moment of that row).
 */
const ROW_COLUMNS = `row_id, row_number, iif(octet_length(cells) <= ${MAX_ROW_READ_BYTES}, cells, null) as cells,
  octet_length(cells) as cells_bytes, problem, problem_column, state, checked`;
/** Rows small enough to read (the others are shown as too large and never changed or imported). */
const READABLE = `octet_length(cells) <= ${MAX_ROW_READ_BYTES}`;

/** Row ids per block of import_draft_blocks (1,024; migration 025 groups them the same way). */
const BLOCK_BITS = 10;

/** Where the rows of a list start: at this row id, after skipping this many rows of the list. */
interface Seek {
  fromRowId: number;
  skip: number;
}

/**
 * (Without statistics SQLite reads a draft's rows by its key prefix rather than by draft and import
 * index; `indexed by` makes the lookups of an import's excluded rows direct.)
 *
 * The drafts' statements, synchronous (better-sqlite3): a draft's work is many rows in one
 * transaction, run by the caller inside writeNow (db/write-now.ts) when it writes.
 * Every statement names the draft by its uuid, the leading column of each table's key.
 */
export function draftStore(sqlite: SQLite.Database) {
  return {
    /** A new draft, without rows yet (insertRows counts them); ready = 0 hides it until its rows are all written. */
    insertDraft(draft: Omit<DraftRecord, 'row_count' | 'problem_count' | 'imported_count'>): void {
      sqlite
        .prepare(
          `insert into import_drafts (uuid, organization_uuid, kind, source_task_uuid, options, status, import_task_uuid, last_import, created_by_uuid, created_on, updated_on, ready)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          draft.uuid,
          draft.organization_uuid,
          draft.kind,
          draft.source_task_uuid,
          draft.options,
          draft.status,
          draft.import_task_uuid,
          draft.last_import,
          draft.created_by_uuid,
          draft.created_on,
          draft.updated_on,
          draft.ready,
        );
    },

    /** Shows a draft whose rows are all written. */
    markReady(uuid: string): void {
      sqlite.prepare('update import_drafts set ready = 1 where uuid = ?').run(uuid);
    },

    /** Drafts of an organization whose rows were never all written (the server stopped, or the writing failed). */
    unfinished(organizationUuid: string): string[] {
      return (
        sqlite.prepare('select uuid from import_drafts where organization_uuid = ? and ready = 0').all(organizationUuid) as {
          uuid: string;
        }[]
      ).map((row) => row.uuid);
    },

    /** Inserts open rows from firstId on, and adds them to the draft's counts (the trigger of migration 025 counts only updates). */
    insertRows(draftUuid: string, rows: readonly NewDraftRow[], firstId = 1): void {
      const insert = sqlite.prepare(
        `insert into import_draft_rows (draft_uuid, row_id, row_number, cells, search_text, problem, problem_column, state, checked)
         values (?, ?, ?, ?, ?, ?, ?, 'open', 1)`,
      );
      const blocks = new Map<number, { rows: number; problems: number }>();
      let problems = 0;
      rows.forEach((row, i) => {
        const rowId = firstId + i;
        insert.run(draftUuid, rowId, row.row_number, row.cells, row.search_text, row.problem, row.problem_column);
        const block = blocks.get(rowId >> BLOCK_BITS) ?? { rows: 0, problems: 0 };
        block.rows++;
        if (row.problem !== null) {
          block.problems++;
          problems++;
        }
        blocks.set(rowId >> BLOCK_BITS, block);
      });
      const addBlock = sqlite.prepare(
        `insert into import_draft_blocks (draft_uuid, block, rows, problems) values (?, ?, ?, ?)
         on conflict (draft_uuid, block) do update set rows = rows + excluded.rows, problems = problems + excluded.problems`,
      );
      for (const [block, counts] of blocks) addBlock.run(draftUuid, block, counts.rows, counts.problems);
      sqlite
        .prepare('update import_drafts set row_count = row_count + ?, problem_count = problem_count + ? where uuid = ?')
        .run(rows.length, problems, draftUuid);
    },

    find(uuid: string): DraftRecord | undefined {
      return sqlite.prepare('select * from import_drafts where uuid = ? and ready = 1').get(uuid) as DraftRecord | undefined;
    },

    list(organizationUuid: string, sourceTaskUuid: string | undefined): DraftRecord[] {
      if (sourceTaskUuid !== undefined) {
        return sqlite
          .prepare(
            'select * from import_drafts where organization_uuid = ? and source_task_uuid = ? and ready = 1 order by created_on desc',
          )
          .all(organizationUuid, sourceTaskUuid) as DraftRecord[];
      }
      return sqlite
        .prepare('select * from import_drafts where organization_uuid = ? and ready = 1 order by created_on desc limit 100')
        .all(organizationUuid) as DraftRecord[];
    },

    update(uuid: string, changes: Partial<Pick<DraftRecord, 'status' | 'import_task_uuid' | 'last_import'>>): void {
      const keys = Object.keys(changes) as (keyof typeof changes)[];
      sqlite
        .prepare(`update import_drafts set ${[...keys.map((key) => `${key} = ?`), 'updated_on = ?'].join(', ')} where uuid = ?`)
        .run(...keys.map((key) => changes[key] ?? null), nowIso(), uuid);
    },

    /** Hides a draft that is being removed (removeDraft in drafts.ts takes its rows away in chunks). */
    hide(uuid: string): void {
      sqlite.prepare('update import_drafts set ready = 0 where uuid = ?').run(uuid);
    },

    /** Deletes up to `limit` rows of a draft's undo history, else of its rows; how many it deleted. */
    deleteSome(uuid: string, limit: number): number {
      const history = sqlite
        .prepare(
          `delete from import_draft_history where draft_uuid = ? and (seq, row_id) in
             (select seq, row_id from import_draft_history where draft_uuid = ? order by seq, row_id limit ?)`,
        )
        .run(uuid, uuid, limit).changes;
      if (history > 0) return history;
      return sqlite
        .prepare(
          `delete from import_draft_rows where draft_uuid = ? and row_id in
             (select row_id from import_draft_rows where draft_uuid = ? order by row_id limit ?)`,
        )
        .run(uuid, uuid, limit).changes;
    },

    /** The organization's drafts, those being written or removed too. */
    countDrafts(organizationUuid: string): number {
      return sqlite.prepare('select count(*) from import_drafts where organization_uuid = ?').pluck().get(organizationUuid) as number;
    },

    remove(uuid: string): void {
      sqlite.prepare('delete from import_drafts where uuid = ?').run(uuid);
    },

    /** The draft's counts, kept by insertRows and the trigger of migration 025 (nothing is counted here). */
    counts(uuid: string): { rows: number; problems: number; imported: number } {
      const counts = sqlite
        .prepare('select row_count as rows, problem_count as problems, imported_count as imported from import_drafts where uuid = ?')
        .get(uuid) as { rows: number; problems: number; imported: number } | undefined;
      return counts ?? { rows: 0, problems: 0, imported: 0 };
    },

    /**
     * Where the offset-th row of the list (or of the rows with problems) is: the blocks' counts
     * are added up to the block that holds it (a hundred small rows at 100,000 rows), and the
     * page then steps over at most one block's rows (1,023) before it reads. So a page anywhere,
     * the middle of 100,000 rows too, costs about the same as the first: an OFFSET would step
     * over every row before it (tens of ms at 50,000), and a position column kept dense would
     * rewrite every row below a deleted one, and every row's place in the problems-only list would
     * move with each edit that fixes a row. undefined: the offset is past the end.
     */
    seek(uuid: string, problemsOnly: boolean, offset: number): Seek | undefined {
      const blocks = sqlite
        .prepare('select block, rows, problems from import_draft_blocks where draft_uuid = ? order by block')
        .all(uuid) as { block: number; rows: number; problems: number }[];
      let before = 0;
      for (const block of blocks) {
        const count = problemsOnly ? block.problems : block.rows;
        if (before + count > offset) return { fromRowId: block.block << BLOCK_BITS, skip: offset - before };
        before += count;
      }
      return undefined;
    },

    /**
     * A page of the draft's rows in row order, with the filters. Without a text filter the total
     * is the draft's kept count and the page starts where seek finds it, then reads on by row id
     * (keyset); the text filter reads every row (instr over each row's text) and counts them.
     */
    page(uuid: string, query: DraftRowsQuery): { total: number; rows: DraftRowRecord[] } {
      const filter = query.problems_only ? `problem is not null and state = 'open'` : `state != 'deleted'`;
      const search = query.search?.trim().toLowerCase() ?? '';
      if (search) {
        // One pass over the rows finds every match (the total); the page's rows are then read by their ids.
        const where = `draft_uuid = ? and ${filter} and octet_length(search_text) <= ${MAX_ROW_READ_BYTES} and instr(search_text, ?) > 0`;
        const ids = sqlite
          .prepare(`select row_id from import_draft_rows where ${where} order by row_id`)
          .pluck()
          .all(uuid, search) as number[];
        const first = ids[query.offset];
        const last = ids[Math.min(ids.length, query.offset + query.limit) - 1];
        if (first === undefined || last === undefined) return { total: ids.length, rows: [] };
        const rows = sqlite
          .prepare(`select ${ROW_COLUMNS} from import_draft_rows where ${where} and row_id between ? and ? order by row_id`)
          .all(uuid, search, first, last) as DraftRowRecord[];
        return { total: ids.length, rows };
      }
      const counts = this.counts(uuid);
      const total = query.problems_only ? counts.problems : counts.rows;
      const start = query.offset < total ? this.seek(uuid, query.problems_only, query.offset) : undefined;
      if (!start) return { total, rows: [] };
      const rows = sqlite
        .prepare(
          `select ${ROW_COLUMNS} from import_draft_rows where draft_uuid = ? and row_id >= ? and ${filter} order by row_id limit ? offset ?`,
        )
        .all(uuid, start.fromRowId, query.limit, start.skip) as DraftRowRecord[];
      return { total, rows };
    },

    row(uuid: string, rowId: number): DraftRowRecord | undefined {
      return sqlite
        .prepare(`select ${ROW_COLUMNS} from import_draft_rows where draft_uuid = ? and row_id = ? and state != 'deleted'`)
        .get(uuid, rowId) as DraftRowRecord | undefined;
    },

    /** Every open row small enough to read (the import of the fixed rows), in order. */
    openRows(uuid: string): DraftRowRecord[] {
      return sqlite
        .prepare(`select ${ROW_COLUMNS} from import_draft_rows where draft_uuid = ? and state = 'open' and ${READABLE} order by row_id`)
        .all(uuid) as DraftRowRecord[];
    },

    /** Open rows small enough to read (downloads, find and replace, fill down), a page at a time after a row id (keyset), up to a row id. */
    rowsAfter(uuid: string, afterId: number, limit: number, untilId = Number.MAX_SAFE_INTEGER): DraftRowRecord[] {
      return sqlite
        .prepare(
          `select ${ROW_COLUMNS} from import_draft_rows where draft_uuid = ? and row_id > ? and row_id <= ? and state = 'open' and ${READABLE}
           order by row_id limit ?`,
        )
        .all(uuid, afterId, untilId, limit) as DraftRowRecord[];
    },

    /** A statement that writes a row's cells and verdict. */
    rowWriter() {
      const write = sqlite.prepare(
        `update import_draft_rows set cells = ?, search_text = ?, problem = ?, problem_column = ?, checked = ?, state = ?
         where draft_uuid = ? and row_id = ?`,
      );
      return (uuid: string, row: WrittenRow) =>
        write.run(row.cells, row.search_text, row.problem, row.problem_column, row.checked, row.state, uuid, row.row_id);
    },

    /** A statement that takes a row out of the draft (its cells are not read). */
    rowDeleter() {
      const remove = sqlite.prepare(`update import_draft_rows set state = 'deleted' where draft_uuid = ? and row_id = ?`);
      return (uuid: string, rowId: number) => remove.run(uuid, rowId);
    },

    verdictWriter() {
      const write = sqlite.prepare(
        `update import_draft_rows set problem = ?, problem_column = ?, checked = 1 where draft_uuid = ? and row_id = ?`,
      );
      return (uuid: string, rowId: number, problem: string | null, column: string | null) => write.run(problem, column, uuid, rowId);
    },

    /**
     * Starts an edit: its number, and a statement that keeps a row as it was before it. An edit
     * written in chunks starts incomplete (complete = 0) and is completed by completeEdit.
     */
    beginEdit(uuid: string, action: string, rows: number, complete = true): { seq: number; keep: (rowId: number) => void } {
      const last = sqlite.prepare('select max(seq) as seq from import_draft_edits where draft_uuid = ?').get(uuid) as {
        seq: number | null;
      };
      const seq = (last.seq ?? 0) + 1;
      sqlite
        .prepare('insert into import_draft_edits (draft_uuid, seq, action, rows, created_on, complete) values (?, ?, ?, ?, ?, ?)')
        .run(uuid, seq, action, rows, nowIso(), complete ? 1 : 0);
      sqlite.prepare('delete from import_draft_edits where draft_uuid = ? and seq <= ?').run(uuid, seq - UNDO_DEPTH);
      return { seq, keep: this.keeper(uuid, seq) };
    },

    /** A statement that keeps a row as it is now in the history of an edit. */
    keeper(uuid: string, seq: number): (rowId: number) => void {
      const keep = sqlite.prepare(
        `insert into import_draft_history (draft_uuid, seq, row_id, cells, search_text, problem, problem_column, state, checked)
         select draft_uuid, ?, row_id, cells, search_text, problem, problem_column, state, checked
         from import_draft_rows where draft_uuid = ? and row_id = ?`,
      );
      return (rowId) => keep.run(seq, uuid, rowId);
    },

    /** An edit's chunks are all written: it counts rows and undo takes it back. */
    completeEdit(uuid: string, seq: number, rows: number): void {
      sqlite.prepare('update import_draft_edits set rows = ?, complete = 1 where draft_uuid = ? and seq = ?').run(rows, uuid, seq);
    },

    /** An edit that is being taken back (or whose chunks were never all written): it is not complete. */
    markIncomplete(uuid: string, seq: number): void {
      sqlite.prepare('update import_draft_edits set complete = 0 where draft_uuid = ? and seq = ?').run(uuid, seq);
    },

    lastEdit(uuid: string): { seq: number; action: string; rows: number; complete: number } | undefined {
      return sqlite
        .prepare('select seq, action, rows, complete from import_draft_edits where draft_uuid = ? order by seq desc limit 1')
        .get(uuid) as { seq: number; action: string; rows: number; complete: number } | undefined;
    },

    /**
     * Puts back up to `limit` rows of an edit as they were before it (the lowest row ids left in
     * its history) and drops them from the history; null when none is left. undoEdit forgets the edit.
     */
    undoChunk(uuid: string, seq: number, limit: number): number | null {
      const last = sqlite
        .prepare(
          'select max(row_id) as row_id from (select row_id from import_draft_history where draft_uuid = ? and seq = ? order by row_id limit ?)',
        )
        .get(uuid, seq, limit) as { row_id: number | null };
      if (last.row_id === null) return null;
      const restored = sqlite
        .prepare(
          `update import_draft_rows set cells = h.cells, search_text = h.search_text, problem = h.problem,
             problem_column = h.problem_column, state = h.state, checked = h.checked
           from import_draft_history as h
           where h.draft_uuid = ? and h.seq = ? and h.row_id <= ? and import_draft_rows.draft_uuid = ? and import_draft_rows.row_id = h.row_id`,
        )
        .run(uuid, seq, last.row_id, uuid).changes;
      sqlite.prepare('delete from import_draft_history where draft_uuid = ? and seq = ? and row_id <= ?').run(uuid, seq, last.row_id);
      return restored;
    },

    /** Forgets an edit whose history undoChunk has emptied. */
    undoEdit(uuid: string, seq: number): void {
      sqlite.prepare('delete from import_draft_edits where draft_uuid = ? and seq = ?').run(uuid, seq);
    },

    forgetEdits(uuid: string): void {
      sqlite.prepare('delete from import_draft_edits where draft_uuid = ?').run(uuid);
    },

    markForImport(): (uuid: string, rowId: number, index: number) => void {
      const mark = sqlite.prepare('update import_draft_rows set import_index = ? where draft_uuid = ? and row_id = ?');
      return (uuid, rowId, index) => mark.run(index, uuid, rowId);
    },

    /** After the import of the fixed rows: the rows it took are imported, then those it excluded are open again. */
    settleImport(uuid: string, rowsDone: number): number {
      return sqlite
        .prepare(
          `update import_draft_rows set state = 'imported', problem = null, problem_column = null, checked = 1
           where draft_uuid = ? and import_index < ?`,
        )
        .run(uuid, rowsDone).changes;
    },

    reopenExcluded(): (uuid: string, index: number, problem: string, column: string | null) => boolean {
      const reopen = sqlite.prepare(
        `update import_draft_rows indexed by import_draft_rows_import set state = 'open', problem = ?, problem_column = ?
         where draft_uuid = ? and import_index = ?`,
      );
      return (uuid, index, problem, column) => reopen.run(problem, column, uuid, index).changes > 0;
    },

    cellsAtImportIndex(uuid: string, index: number): Record<string, string> {
      const row = sqlite
        .prepare('select cells from import_draft_rows indexed by import_draft_rows_import where draft_uuid = ? and import_index = ?')
        .get(uuid, index) as { cells: string } | undefined;
      return row ? (JSON.parse(row.cells) as Record<string, string>) : {};
    },

    clearImportIndexes(uuid: string): void {
      sqlite.prepare('update import_draft_rows set import_index = null where draft_uuid = ? and import_index is not null').run(uuid);
    },
  };
}
