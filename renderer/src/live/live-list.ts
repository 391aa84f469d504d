import type { BackgroundTask, Page } from '../api/types.ts';

/** A list loaded after the end of a task may meet an older progress event of it: the end stays. */
const isFinished = (task: BackgroundTask) => task.status === 'COMPLETED' || task.status === 'FAILED';

/**
 * A page of the task list with one live task applied: a task already listed is updated in place;
 * a task the list has not seen (started after it loaded, by the GUI, the CLI or curl) goes at the
 * top of the first page when it matches the filters, the last row moving to the next page.
 */
export function mergeLiveTask(
  current: Page<BackgroundTask>,
  task: BackgroundTask,
  view: { page: number; matches: (task: BackgroundTask) => boolean },
): Page<BackgroundTask> {
  if (current.items.some((t) => t.uuid === task.uuid)) {
    return {
      ...current,
      items: current.items.map((t) => (t.uuid === task.uuid && !(isFinished(t) && !isFinished(task)) ? { ...t, ...task } : t)),
    };
  }
  const newest = current.items[0]?.created_on ?? '';
  if (view.page !== 1 || !view.matches(task) || task.created_on < newest) return current;
  const total = current.total + 1;
  const perPage = current.per_page > 0 ? current.per_page : current.items.length + 1;
  return { ...current, items: [task, ...current.items].slice(0, perPage), total, pages: Math.ceil(total / perPage) };
}
