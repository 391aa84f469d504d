import { type QueryFunction, queryOptions } from '@tanstack/react-query';
import { getQuery } from './get-query.ts';
import type { BackgroundTask } from './types.ts';

const PATH = '/api/background-tasks/uuid/{background_task_uuid}';

/** One task (GET /api/background-tasks/uuid/{uuid}), its results read as a record (api/types.ts). */
export const taskQuery = (uuid: string) => {
  const params = { path: { background_task_uuid: uuid } };
  return queryOptions({
    queryKey: [PATH, params] as const,
    queryFn: getQuery(PATH, params).queryFn as QueryFunction<BackgroundTask>,
  });
};
