import type { BackgroundTask } from './types.ts';
import { importTaskOf } from './import-kinds.ts';
import { fileName } from './task-format.ts';
import { countOf } from '../../../common/count-words.ts';

type Results = Record<string, unknown>;

const count = (results: Results, key: string): number | null => {
  const value = results[key];
  return typeof value === 'number' ? value : null;
};

/** "1 inserted, 2 excluded": the counts that matter in plain words; the error of a failed task. */
export function resultPhrase(task: Pick<BackgroundTask, 'task_type' | 'status' | 'results' | 'error_message'>): string {
  if (task.status === 'FAILED') return task.error_message ?? 'Failed';
  const results = task.results;
  if (!results) return '';
  // The counts a reader looks for first, by task type (GET /api/meta `summary`): always inserted and excluded, the rest when not zero.
  const wanted = importTaskOf(task.task_type)?.summary;
  if (!wanted) {
    return Object.entries(results)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([key, value]) => `${value.toLocaleString()} ${key.replace(/_/g, ' ')}`)
      .join(', ');
  }
  const parts: string[] = [];
  for (const { key, label, always } of wanted) {
    const value = count(results, key) ?? (label === 'excluded' ? excludedListLength(task.task_type, results) : null);
    if (value === null || (value === 0 && !always)) continue;
    parts.push(`${value.toLocaleString()} ${label}`);
  }
  return parts.join(', ');
}

function excludedListLength(taskType: string, results: Results): number | null {
  const key = importTaskOf(taskType)?.excluded_list;
  const list = key === undefined ? undefined : results[key];
  return Array.isArray(list) ? list.length : null;
}

/** How many records the import read, once it has results (written or excluded). */
export function recordCount(task: Pick<BackgroundTask, 'task_type' | 'results'>): number | null {
  const results = task.results;
  if (!results) return null;
  const type = importTaskOf(task.task_type);
  if (!type) return null;
  const excluded = count(results, type.excluded_count) ?? excludedListLength(task.task_type, results) ?? 0;
  return type.written.reduce((total, key) => total + (count(results, key) ?? 0), 0) + excluded;
}

/** What was imported: the file name, or e.g. "JSON body, 12 records" for an import sent as a request body. */
export function sourceSummary(task: Pick<BackgroundTask, 'task_type' | 'results' | 'metadata'>): string {
  const name = fileName(task);
  if (name) return name;
  const records = recordCount(task);
  if (records === null) return 'JSON body';
  return `JSON body, ${countOf(records, 'record')}`;
}

/** Who started the task: "Demo admin key (admin)", from the key name the server noted; null when not known. */
export function startedBy(task: Pick<BackgroundTask, 'metadata'>): string | null {
  const name = task.metadata?.api_key_name;
  const role = task.metadata?.api_key_role;
  if (typeof name !== 'string' || name === '') return null;
  return typeof role === 'string' && role !== '' ? `${name} (${role})` : name;
}

const thisYear = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});
const otherYear = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** When a task started, to the second (imports started together differ by seconds); no year when it is this year's. */
export function taskTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return (date.getFullYear() === new Date().getFullYear() ? thisYear : otherYear).format(date);
}
