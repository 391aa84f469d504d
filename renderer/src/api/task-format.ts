import { importKindOf, importTaskOf, importTasks } from './import-kinds.ts';
import type { BackgroundTask } from './types.ts';

/** The task type in the server's words (GET /api/meta), or as it is. */
export function taskTypeLabel(type: string): string {
  return importTaskOf(type)?.label ?? type;
}

export function isRunning(task: BackgroundTask): boolean {
  return task.status === 'PENDING' || task.status === 'PROCESSING';
}

/** What the result helpers read: a task, or a dry run's answer dressed as one. */
export type ResultsOf = Pick<BackgroundTask, 'task_type' | 'results' | 'metadata'>;

export function fileName(task: Pick<BackgroundTask, 'metadata'>): string | null {
  const name = task.metadata?.filename;
  return typeof name === 'string' && name !== '' ? name : null;
}

/** The whole-number counts of a task's results, e.g. inserted 120, excluded 3, with readable names. */
export function resultCounts(task: ResultsOf): { key: string; label: string; value: number }[] {
  if (!task.results) return [];
  return Object.entries(task.results)
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
    .map(([key, value]) => ({ key, label: key.replace(/_/g, ' '), value }));
}

/** One row an import excluded, whatever the result shape it came in (docs/api.md). */
export interface ExcludedRow {
  index: number;
  /** Where the row is in the uploaded file, as the server read it (`row_number`); null from a service that sends only the index. */
  rowNumber: number | null;
  error: string;
  row: Record<string, unknown>;
}

export function excludedRows(task: ResultsOf): ExcludedRow[] {
  return task.results ? excludedRowsOf(task.results) : [];
}

const rowNumberOf = (entry: Record<string, unknown>): number | null => (typeof entry.row_number === 'number' ? entry.row_number : null);

/** Where results list their excluded rows: every task type's key (a remote service's answer may name no task type). */
const excludedLists = () => [...new Set(importTasks().map((task) => task.excluded_list))];

/** The excluded rows of a results object, e.g. a sync import's answer (the same object at the top level). */
export function excludedRowsOf(results: Record<string, unknown>): ExcludedRow[] {
  const list = excludedLists()
    .map((key) => results[key])
    .find(Array.isArray);
  if (!list) return [];
  return list.map((item: unknown, position: number) => {
    const entry = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const index = typeof entry.index === 'number' ? entry.index : position;
    const row = entry.row ?? entry.data;
    const error = entry.error ?? entry.error_message;
    return {
      index,
      rowNumber: rowNumberOf(entry),
      error: typeof error === 'string' ? error : '',
      row: typeof row === 'object' && row !== null ? (row as Record<string, unknown>) : {},
    };
  });
}

/** "Row 8", or for a service that numbers rows only by index, "Index 4". */
export function rowLabel(row: { index: number; rowNumber: number | null }): string {
  return row.rowNumber === null ? `Index ${row.index}` : `Row ${row.rowNumber}`;
}

/** A row imported with a warning (results `warnings`: an address located by its place, an ambiguous start time). */
export interface WarnedRow {
  index: number;
  rowNumber: number | null;
  warning: string;
}

/** The warnings of an import's results, in row order (the first 1,000; `warned` counts every warned row). */
export function warnedRows(task: ResultsOf): WarnedRow[] {
  const list = task.results?.warnings;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item: unknown) => {
    const entry = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const { index, warning } = entry;
    return typeof index === 'number' && typeof warning === 'string' ? [{ index, rowNumber: rowNumberOf(entry), warning }] : [];
  });
}

/** How many rows were excluded in all: the exact count when the results have one (the list keeps the first 1,000). */
export function excludedTotal(task: ResultsOf, listed: number): number {
  const count = task.results?.[importTaskOf(task.task_type)?.excluded_count ?? 'excluded'];
  return typeof count === 'number' ? Math.max(count, listed) : listed;
}

/** Where the full error report of this task downloads from (docs/api.md). */
export function errorReportPath(task: BackgroundTask): string {
  const kind = importTaskOf(task.task_type)?.kind;
  if (!kind) throw new Error(`No import kind of this server creates ${task.task_type} tasks, so there is no error report to download.`);
  return importKindOf(kind).error_report_path.replace('{background_task_uuid}', encodeURIComponent(task.uuid));
}

/** Column names across the excluded rows, in first-seen order (looks at the first 200 rows). */
export function rowColumns(rows: ExcludedRow[]): string[] {
  const seen = new Set<string>();
  for (const r of rows.slice(0, 200)) for (const key of Object.keys(r.row)) seen.add(key);
  return [...seen];
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
