import type { Stat } from '../StatList.tsx';
import { resultCounts, type ResultsOf } from '../../api/task-format.ts';

/** Result keys of each import, in the order shown, with their words; `upserted` is not shown: it is new + changed + up to date. */
const WORDS: Record<string, { key: string; label: string; always?: boolean }[]> = {
  APPOINTMENT_IMPORT: [
    { key: 'inserted', label: 'inserted' },
    { key: 'updated', label: 'updated' },
    { key: 'unchanged', label: 'already up to date' },
    { key: 'excluded', label: 'excluded', always: true },
    { key: 'tags_created', label: 'tags created' },
    { key: 'warned', label: 'imported with a warning' },
  ],
  QR_IMPORT: [
    { key: 'inserted', label: 'inserted' },
    { key: 'updated', label: 'updated' },
    { key: 'restored', label: 'restored' },
    { key: 'excluded', label: 'excluded', always: true },
    { key: 'tags_created', label: 'tags created' },
    { key: 'warned', label: 'imported with a warning' },
  ],
  IMPORT: [
    { key: 'qr_code_inserted', label: 'inserted' },
    { key: 'qr_code_updated', label: 'updated' },
    { key: 'qr_code_restored', label: 'restored' },
    { key: 'excluded_count', label: 'excluded', always: true },
    { key: 'qr_code_tags_created', label: 'tags created' },
    { key: 'warned', label: 'imported with a warning' },
  ],
};

/**
 * An import's counts said once, in words: each count that happened (and always the excluded
 * rows), e.g. "2 inserted, 2 excluded" rather than "2 upserted, 2 excluded, 2 inserted, 0 updated, 0 unchanged…".
 */
export function importStats(task: ResultsOf): Stat[] {
  const results = task.results;
  const words = WORDS[task.task_type];
  if (!results || !words) return resultCounts(task);
  const number = (key: string) => (typeof results[key] === 'number' ? results[key] : undefined);
  const known = words.filter((w) => number(w.key) !== undefined);
  // A sync answer may carry only the list of upserted schedules: count them as imported.
  if (known.length === 0 && typeof number('upserted') === 'number')
    return [{ key: 'upserted', label: 'imported', value: number('upserted') ?? 0 }];
  if (known.length === 0) return resultCounts(task);
  return known.flatMap((w) => {
    const value = number(w.key) ?? 0;
    return value > 0 || w.always ? [{ key: w.key, label: w.label, value }] : [];
  });
}
