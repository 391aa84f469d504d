import type { BackgroundTask } from './types.ts';
import { fileName } from './task-format.ts';
import { countOf } from '../../../common/count-words.ts';

type Results = Record<string, unknown>;

const count = (results: Results, key: string): number | null => {
  const value = results[key];
  return typeof value === 'number' ? value : null;
};

/** The counts a reader looks for first, by task type: always inserted and excluded, the rest when not zero. */
const COUNTS: Record<string, { key: string; label: string; always?: boolean }[]> = {
  IMPORT: [
    { key: 'qr_code_inserted', label: 'inserted', always: true },
    { key: 'qr_code_updated', label: 'updated' },
    { key: 'qr_code_restored', label: 'restored' },
    { key: 'excluded_count', label: 'excluded', always: true },
  ],
  QR_IMPORT: [
    { key: 'inserted', label: 'inserted', always: true },
    { key: 'updated', label: 'updated' },
    { key: 'restored', label: 'restored' },
    { key: 'excluded', label: 'excluded', always: true },
  ],
  APPOINTMENT_IMPORT: [
    { key: 'inserted', label: 'inserted', always: true },
    { key: 'updated', label: 'updated' },
    { key: 'unchanged', label: 'unchanged' },
    { key: 'excluded', label: 'excluded', always: true },
  ],
};

/** "1 inserted, 2 excluded": the counts that matter in plain words; the error of a failed task. */
export function resultPhrase(task: Pick<BackgroundTask, 'task_type' | 'status' | 'results' | 'error_message'>): string {
  if (task.status === 'FAILED') return task.error_message ?? 'Failed';
  const results = task.results;
  if (!results) return '';
  const wanted = COUNTS[task.task_type];
  if (!wanted) {
    return Object.entries(results)
      .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
      .map(([key, value]) => `${value.toLocaleString()} ${key.replace(/_/g, ' ')}`)
      .join(', ');
  }
  const parts: string[] = [];
  for (const { key, label, always } of wanted) {
    const value = count(results, key) ?? (label === 'excluded' ? excludedListLength(results) : null);
    if (value === null || (value === 0 && !always)) continue;
    parts.push(`${value.toLocaleString()} ${label}`);
  }
  return parts.join(', ');
}

function excludedListLength(results: Results): number | null {
  for (const key of ['excluded_qr_codes', 'excluded_data', 'excluded_appointments']) {
    const list = results[key];
    if (Array.isArray(list)) return list.length;
  }
  return null;
}

/** How many records the import read, once it has results (written or excluded). */
export function recordCount(task: Pick<BackgroundTask, 'task_type' | 'results'>): number | null {
  const results = task.results;
  if (!results) return null;
  const excluded = count(results, 'excluded_count') ?? count(results, 'excluded') ?? excludedListLength(results) ?? 0;
  const sum = (keys: string[]) => keys.reduce((total, key) => total + (count(results, key) ?? 0), 0);
  if (task.task_type === 'IMPORT') return sum(['qr_code_inserted', 'qr_code_updated', 'qr_code_restored']) + excluded;
  if (task.task_type === 'APPOINTMENT_IMPORT') return (count(results, 'upserted') ?? sum(['inserted', 'updated', 'unchanged'])) + excluded;
  return sum(['inserted', 'updated', 'restored']) + excluded;
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
