import type { Api } from '../http/api.ts';
import { notFound } from '../http/errors.ts';
import { organizationGet } from '../http/resource-routes.ts';
import { backgroundTaskPageSchema, backgroundTaskSchema, taskListQuerySchema, taskUuidParamsSchema } from './schemas.ts';
import { listTasks, readTask } from './store.ts';
import type { AppContext } from '../context.ts';

export function registerTaskRoutes(api: Api, ctx: AppContext): void {
  api.route(
    {
      method: 'get',
      path: '/api/background-tasks/uuid/{background_task_uuid}',
      tag: 'Background tasks',
      summary: 'Get one background task. Poll every 2 to 5 seconds until COMPLETED or FAILED.',
      params: taskUuidParamsSchema,
      response: backgroundTaskSchema,
    },
    async ({ params, principal }) => {
      const answer = await readTask(ctx.db, params.background_task_uuid, principal.readAt);
      if (!answer || answer.task.organization_uuid !== principal.organizationUuid) {
        throw notFound(`Background task ${params.background_task_uuid}`);
      }
      return answer.json;
    },
  );

  organizationGet(
    api,
    {
      path: '/api/background-tasks',
      tag: 'Background tasks',
      summary: 'List background tasks of an organization, newest first.',
      query: taskListQuerySchema,
      response: backgroundTaskPageSchema,
    },
    async (query, { principal }) => listTasks(ctx.db, query, principal.readAt),
  );
}
