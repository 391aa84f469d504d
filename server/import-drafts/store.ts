import type SQLite from 'better-sqlite3';
import type { ImportDraftRowTable, ImportDraftTable } from '../db/schema.ts';
import { nowIso } from '../time.ts';
import type { DraftRowsQuery } from './schemas.ts';

/** Edits kept for undo per draft; older ones are dropped. */
export const UNDO_DEPTH = 50;

export type DraftRecord = ImportDraftTable;
export type DraftRowRecord = Omit<ImportDraftRowTable, 'draft_uuid' | 'import_index'>;

export interface NewDraftRow {
  row_number: number | null;
  cells: string;
  search_text: string;
  problem: string | null;
  problem_column: string | null;
}

const ROW_COLUMNS = 'row_id, row_number, cells, problem, problem_column, state, checked';

/**
 * (Without statistics SQLite reads a draft's rows by its key prefix rather than by draft and import
 * index; `indexed by` makes the lookups of an import's excluded rows direct.)
 *
 * The drafts' statements, synchronous (better-sqlite3): a draft's work is many rows in one
 * transaction, run by the caller inside writeTransaction (write-lock.ts) when it writes.
 * Every statement names the draft by its uuid, the leading column of each table's key.
 */
export function draftStore(sqlite: SQLite.Database) {
  return {
    insertDraft(draft: DraftRecord): void {
      sqlite
        .prepare(
          `insert into import_drafts (uuid, organization_uuid, kind, source_task_uuid, options, status, import_task_uuid, last_import, created_by_uuid, created_on, updated_on)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        );
    },

    insertRows(draftUuid: string, rows: readonly NewDraftRow[], firstId = 1): void {
      const insert = sqlite.prepare(
        `insert into import_draft_rows (draft_uuid, row_id, row_number, cells, search_text, problem, problem_column, state, checked)
         values (?, ?, ?, ?, ?, ?, ?, 'open', 1)`,
      );
      rows.forEach((row, i) => {
        insert.run(draftUuid, firstId + i, row.row_number, row.cells, row.search_text, row.problem, row.problem_column);
      });
    },

    find(uuid: string): DraftRecord | undefined {
      return sqlite.prepare('select * from import_drafts where uuid = ?').get(uuid) as DraftRecord | undefined;
    },

    list(organizationUuid: string, sourceTaskUuid: string | undefined): DraftRecord[] {
      if (sourceTaskUuid !== undefined) {
        return sqlite
          .prepare('select * from import_drafts where organization_uuid = ? and source_task_uuid = ? order by created_on desc')
          .all(organizationUuid, sourceTaskUuid) as DraftRecord[];
      }
      return sqlite
        .prepare('select * from import_drafts where organization_uuid = ? order by created_on desc limit 100')
        .all(organizationUuid) as DraftRecord[];
    },

    update(uuid: string, changes: Partial<Pick<DraftRecord, 'status' | 'import_task_uuid' | 'last_import'>>): void {
      const keys = Object.keys(changes) as (keyof typeof changes)[];
      sqlite
        .prepare(`update import_drafts set ${[...keys.map((key) => `${key} = ?`), 'updated_on = ?'].join(', ')} where uuid = ?`)
        .run(...keys.map((key) => changes[key] ?? null), nowIso(), uuid);
    },

    remove(uuid: string): void {
      sqlite.prepare('delete from import_drafts where uuid = ?').run(uuid);
    },

    counts(uuid: string): { rows: number; problems: number; imported: number } {
      const counted = sqlite
        .prepare(
          `select count(*) as rows, coalesce(sum(state = 'imported'), 0) as imported
           from import_draft_rows where draft_uuid = ? and state != 'deleted'`,
        )
        .get(uuid) as { rows: number; imported: number };
      const problems = sqlite
        .prepare(`select count(*) as n from import_draft_rows where draft_uuid = ? and problem is not null and state = 'open'`)
        .get(uuid) as { n: number };
      return { rows: counted.rows, problems: problems.n, imported: counted.imported };
    },

    /** A page of the draft's rows in row order, with the filters; total counts every row that passes them. */
    page(uuid: string, query: DraftRowsQuery): { total: number; rows: DraftRowRecord[] } {
      const where = ['draft_uuid = ?'];
      const args: unknown[] = [uuid];
      if (query.problems_only) where.push(`problem is not null and state = 'open'`);
      else where.push(`state != 'deleted'`);
      const search = query.search?.trim().toLowerCase() ?? '';
      if (search) {
        where.push('instr(search_text, ?) > 0');
        args.push(search);
      }
      const filter = where.join(' and ');
      const total = (sqlite.prepare(`select count(*) as n from import_draft_rows where ${filter}`).get(...args) as { n: number }).n;
      const rows = sqlite
        .prepare(`select ${ROW_COLUMNS} from import_draft_rows where ${filter} order by row_id limit ? offset ?`)
        .all(...args, query.limit, query.offset) as DraftRowRecord[];
      return { total, rows };
    },

    row(uuid: string, rowId: number): DraftRowRecord | undefined {
      return sqlite
        .prepare(`select ${ROW_COLUMNS} from import_draft_rows where draft_uuid = ? and row_id = ? and state != 'deleted'`)
        .get(uuid, rowId) as DraftRowRecord | undefined;
    },

    /** Open rows from one row id to another, in order (fill down). */
    rowsBetween(uuid: string, fromId: number, toId: number): DraftRowRecord[] {
      return sqlite
        .prepare(
          `select ${ROW_COLUMNS} from import_draft_rows where draft_uuid = ? and row_id between ? and ? and state = 'open' order by row_id`,
        )
        .all(uuid, fromId, toId) as DraftRowRecord[];
    },

    /** Every open row (find and replace, the import of the fixed rows), in order. */
    openRows(uuid: string): DraftRowRecord[] {
      return sqlite
        .prepare(`select ${ROW_COLUMNS} from import_draft_rows where draft_uuid = ? and state = 'open' order by row_id`)
        .all(uuid) as DraftRowRecord[];
    },

    /** Every row not deleted (downloads), a page at a time after a row id. */
    rowsAfter(uuid: string, afterId: number, limit: number): DraftRowRecord[] {
      return sqlite
        .prepare(
          `select ${ROW_COLUMNS} from import_draft_rows where draft_uuid = ? and row_id > ? and state = 'open' order by row_id limit ?`,
        )
        .all(uuid, afterId, limit) as DraftRowRecord[];
    },

    /** A statement that writes a row's cells and verdict. */
    rowWriter() {
      const write = sqlite.prepare(
        `update import_draft_rows set cells = ?, search_text = ?, problem = ?, problem_column = ?, checked = ?, state = ?
         where draft_uuid = ? and row_id = ?`,
      );
      return (uuid: string, row: DraftRowRecord & { search_text: string }) =>
        write.run(row.cells, row.search_text, row.problem, row.problem_column, row.checked, row.state, uuid, row.row_id);
    },

    verdictWriter() {
      const write = sqlite.prepare(
        `update import_draft_rows set problem = ?, problem_column = ?, checked = 1 where draft_uuid = ? and row_id = ?`,
      );
      return (uuid: string, rowId: number, problem: string | null, column: string | null) => write.run(problem, column, uuid, rowId);
    },

    /** Starts an edit: its number, and a statement that keeps a row as it was before it. */
    beginEdit(uuid: string, action: string, rows: number): (rowId: number) => void {
      const last = sqlite.prepare('select max(seq) as seq from import_draft_edits where draft_uuid = ?').get(uuid) as {
        seq: number | null;
      };
      const seq = (last.seq ?? 0) + 1;
      sqlite
        .prepare('insert into import_draft_edits (draft_uuid, seq, action, rows, created_on) values (?, ?, ?, ?, ?)')
        .run(uuid, seq, action, rows, nowIso());
      sqlite.prepare('delete from import_draft_edits where draft_uuid = ? and seq <= ?').run(uuid, seq - UNDO_DEPTH);
      const keep = sqlite.prepare(
        `insert into import_draft_history (draft_uuid, seq, row_id, cells, search_text, problem, problem_column, state, checked)
         select draft_uuid, ?, row_id, cells, search_text, problem, problem_column, state, checked
         from import_draft_rows where draft_uuid = ? and row_id = ?`,
      );
      return (rowId) => keep.run(seq, uuid, rowId);
    },

    lastEdit(uuid: string): { seq: number; action: string; rows: number } | undefined {
      return sqlite.prepare('select seq, action, rows from import_draft_edits where draft_uuid = ? order by seq desc limit 1').get(uuid) as
        | { seq: number; action: string; rows: number }
        | undefined;
    },

    /** Puts back the rows as they were before the edit, and forgets it. */
    undoEdit(uuid: string, seq: number): number {
      const restored = sqlite
        .prepare(
          `update import_draft_rows set cells = h.cells, search_text = h.search_text, problem = h.problem,
             problem_column = h.problem_column, state = h.state, checked = h.checked
           from import_draft_history as h
           where h.draft_uuid = ? and h.seq = ? and import_draft_rows.draft_uuid = ? and import_draft_rows.row_id = h.row_id`,
        )
        .run(uuid, seq, uuid).changes;
      sqlite.prepare('delete from import_draft_edits where draft_uuid = ? and seq = ?').run(uuid, seq);
      return restored;
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

export type DraftStore = ReturnType<typeof draftStore>;
