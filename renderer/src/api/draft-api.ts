import type { ApiRequest } from './client.ts';
import { getQuery } from './get-query.ts';
import type { Schemas } from './types.ts';
import { writeCall } from './write-call.ts';

export type Draft = Schemas['ImportDraft'];
export type DraftRow = Schemas['ImportDraftRow'];

/** "Row 8", the row as the user's file shows it; a row with no place in a file (added here) goes by its line in the grid. */
export function draftRowLabel(row: Pick<DraftRow, 'row_id' | 'row_number'>, sheet: string | null = null): string {
  return row.row_number === null ? `Grid line ${row.row_id}` : `Row ${row.row_number}${sheet ? ` of sheet ${sheet}` : ''}`;
}

export const DRAFTS_PATH = '/api/import-drafts';
export const DRAFT_PATH = '/api/import-drafts/uuid/{draft_uuid}';
export const DRAFT_ROWS_PATH = '/api/import-drafts/uuid/{draft_uuid}/rows';

/** Rows read at a time as the grid scrolls. */
export const PAGE_ROWS = 200;

const at = (uuid: string) => ({ path: { draft_uuid: uuid } });

export const draftQuery = (uuid: string) => getQuery(DRAFT_PATH, at(uuid));

export interface RowFilter {
  problemsOnly: boolean;
  search: string;
}

export const draftRowsQuery = (uuid: string, page: number, filter: RowFilter) =>
  getQuery(DRAFT_ROWS_PATH, {
    ...at(uuid),
    query: {
      offset: page * PAGE_ROWS,
      limit: PAGE_ROWS,
      problems_only: filter.problemsOnly ? 'true' : 'false',
      search: filter.search.trim(),
    },
  });

/** Opens (or finds) the draft of a finished import's excluded rows. */
export const openTaskDraft = (taskUuid: string) => writeCall('post', DRAFTS_PATH, { body: { background_task_uuid: taskUuid } });

/** Opens a draft of rows given (a preview's rows with problems), values keyed by the kind's columns. */
export const openRowsDraft = (kind: Draft['kind'], rows: { row_number: number; values: Record<string, string> }[]) =>
  writeCall('post', DRAFTS_PATH, { body: { kind, rows } });

export const editCell = (uuid: string, rowId: number, column: string, value: string) =>
  writeCall('patch', '/api/import-drafts/uuid/{draft_uuid}/rows/{row_id}', {
    params: { path: { draft_uuid: uuid, row_id: rowId } },
    body: { column, value },
  });

export const replaceInColumn = (
  uuid: string,
  body: { column: string; find: string; replace: string; whole_cell: boolean; match_case: boolean },
) => writeCall('post', '/api/import-drafts/uuid/{draft_uuid}/replace', { params: at(uuid), body });

export const fillDown = (uuid: string, column: string, fromRowId: number, toRowId: number) =>
  writeCall('post', '/api/import-drafts/uuid/{draft_uuid}/fill-down', {
    params: at(uuid),
    body: { column, from_row_id: fromRowId, to_row_id: toRowId },
  });

export const deleteRows = (uuid: string, rowIds: number[]) =>
  writeCall('post', '/api/import-drafts/uuid/{draft_uuid}/delete-rows', { params: at(uuid), body: { row_ids: rowIds } });

export const undoEdit = (uuid: string) => writeCall('post', '/api/import-drafts/uuid/{draft_uuid}/undo', { params: at(uuid) });

export const discardDraft = (uuid: string) => writeCall('delete', DRAFT_PATH, { params: at(uuid) });

export const importFixedRows = (uuid: string) => writeCall('post', '/api/import-drafts/uuid/{draft_uuid}/import', { params: at(uuid) });

export function downloadRequest(uuid: string, format: 'csv' | 'xlsx'): ApiRequest {
  return { method: 'GET', path: `/api/import-drafts/uuid/${encodeURIComponent(uuid)}/download`, query: { format } };
}
