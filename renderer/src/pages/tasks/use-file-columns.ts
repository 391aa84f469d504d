import { useQuery } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';
import type { FileColumns } from './ExcludedRowsTable.tsx';

/** An import task's own column names and sheet (its import job), for showing its rows as the file has them. */
export function useFileColumns(taskUuid: string): FileColumns | undefined {
  const job = useQuery(getQuery('/api/background-tasks/uuid/{background_task_uuid}/import', { path: { background_task_uuid: taskUuid } }));
  return job.data ? { columns: job.data.columns, sheet: job.data.sheet } : undefined;
}
