import { useQuery } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';
import type { FileColumns } from './ExcludedRowsTable.tsx';

/**
 * An import task's own column names and, where its workbook has several sheets, the sheet its rows
 * are on (its import job), for showing its rows as the file has them; undefined while asked.
 */
export function useFileColumns(taskUuid: string | null): FileColumns | undefined {
  const job = useQuery({
    ...getQuery('/api/background-tasks/uuid/{background_task_uuid}/import', { path: { background_task_uuid: taskUuid ?? '' } }),
    enabled: taskUuid !== null,
  });
  if (job.data) {
    const { sheet, sheet_count: sheets } = job.data;
    return { columns: job.data.columns, sheet: sheets === null || sheets > 1 ? sheet : null };
  }
  // No import job to ask (gone, or not an import): the rows go by the kind's column names.
  return job.isError ? { columns: [], sheet: null } : undefined;
}
