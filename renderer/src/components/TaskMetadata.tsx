import type { BackgroundTask } from '../api/types.ts';
import { taskTypeLabel } from '../api/task-format.ts';
import { startedBy } from '../api/task-row-text.ts';
import { formatDateTime } from './date-time.ts';

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Metadata keys the "Created by" line already says in words. */
const SHOWN_AS_CREATOR = new Set(['api_key_name', 'api_key_role']);

/** A task's facts: uuid, type, times, who started it, its metadata. */
export function TaskMetadata({ task }: { task: BackgroundTask }) {
  const who = startedBy(task);
  const entries: [string, string][] = [
    ['Task uuid', task.uuid],
    ['Worker task id', task.task_id],
    ['Type', `${taskTypeLabel(task.task_type)} (${task.task_type})`],
    ['Created', formatDateTime(task.created_on)],
    ['Last update', formatDateTime(task.updated_on)],
    ['Created by', who ? `${who} · key ${task.created_by_uuid}` : task.created_by_uuid],
    ...Object.entries(task.metadata ?? {})
      .filter(([k]) => !SHOWN_AS_CREATOR.has(k))
      .map<[string, string]>(([k, v]) => [capitalize(k.replace(/_/g, ' ')), typeof v === 'string' ? v : JSON.stringify(v)]),
  ];
  return (
    <dl className="facts">
      {entries.map(([label, value]) => (
        <div key={label} className="fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
