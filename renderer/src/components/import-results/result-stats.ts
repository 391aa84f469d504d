import type { Stat } from '../StatList.tsx';
import { importTaskOf } from '../../api/import-kinds.ts';
import { resultCounts, type ResultsOf } from '../../api/task-format.ts';

/**
 * An import's counts said once, in words: each count that happened (and always the excluded
 * rows), e.g. "2 inserted, 2 excluded" rather than "2 upserted, 2 excluded, 2 inserted, 0 updated, 0 unchanged…".
 */
export function importStats(task: ResultsOf): Stat[] {
  const results = task.results;
  // Each task type's counts in the order shown, with their words, are the server's (GET /api/meta).
  const words = importTaskOf(task.task_type)?.counters;
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
