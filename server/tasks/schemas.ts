import { z } from 'zod';
import { searchTerm } from '../text/search-term.ts';
import { organizationListQuery, pageSchema } from '../http/pagination.ts';
import { sandboxOnly } from '../http/sandbox-only.ts';
import { importTasks } from '../imports/kinds.ts';

export const taskStatuses = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export const taskStatusSchema = z.enum(taskStatuses);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

/** Every import kind's task types (imports/kinds.ts). */
export const taskTypes = importTasks.map((task) => task.type) as [string, ...string[]];
export const taskTypeSchema = z.enum(taskTypes);
export type TaskType = string;

const taskFields = {
  uuid: z.string(),
  task_id: z.string(),
  status: taskStatusSchema,
  progress: z.number().min(0).max(100).describe('Percent, 0 to 100'),
  created_by_uuid: z.string(),
  metadata: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('File imports: filename, import_type, source; JSON imports: import_type, source'),
  organization_uuid: z.string(),
  error_message: z.string().nullable().describe('Why the task failed; null otherwise'),
  created_on: z.string().describe('ISO 8601 UTC'),
  updated_on: z.string().describe('ISO 8601 UTC'),
};

/** docs/api.md as the server stores and passes it around; `results` depends on `task_type` (see backgroundTaskSchema). */
export const backgroundTaskRecordSchema = z.object({
  ...taskFields,
  task_type: z.string(),
  results: z.record(z.string(), z.unknown()).nullable(),
});
export type BackgroundTask = z.infer<typeof backgroundTaskRecordSchema>;

const taskOf = (type: string, results: z.ZodType, id: string, description: string) =>
  z
    .object({
      ...taskFields,
      task_type: z.literal(type),
      results: results.nullable().describe('null until COMPLETED; a cancelled import (FAILED) that had written rows has what it did'),
    })
    .meta({ id, description });

/** docs/api.md as answered: a union on task_type, each import kind's task types (imports/kinds.ts) with their own results. */
export const backgroundTaskSchema = z
  .discriminatedUnion(
    'task_type',
    importTasks.map((task) => taskOf(task.type, task.results, task.schemaId, task.description)) as unknown as [
      ReturnType<typeof taskOf>,
      ...ReturnType<typeof taskOf>[],
    ],
  )
  .meta({
    id: 'BackgroundTask',
    discriminator: {
      propertyName: 'task_type',
      mapping: Object.fromEntries(importTasks.map((task) => [task.type, `#/components/schemas/${task.schemaId}`])),
    },
  });

/** A page of background tasks (docs/api.md). */
export const backgroundTaskPageSchema = pageSchema(backgroundTaskSchema);

/** The filters of the task list (docs/api.md). */
export const taskListQuerySchema = organizationListQuery('tasks').extend({
  task_type: taskTypeSchema.optional().describe('Only tasks of this type.'),
  status: sandboxOnly(taskStatusSchema.describe('Only tasks in this status.')).optional(),
  cancelled: sandboxOnly(
    z
      .enum(['true', 'false'])
      .describe(
        'This sandbox\'s addition: true, only imports someone cancelled (they end FAILED, their error_message starting with "Cancelled"); false, only the other tasks. The GUI\'s Cancelled and Failed filters',
      ),
  ).optional(),
  search: sandboxOnly(
    searchTerm().describe(
      "Only tasks whose uuid, file name or error message contains this text, ignoring case. One or two characters look among the organization's newest 10,000 tasks only.",
    ),
  ).optional(),
});
export type TaskListQuery = z.infer<typeof taskListQuerySchema>;

export const taskUuidParamsSchema = z.object({ background_task_uuid: z.string().describe('Background task uuid') });

/** The body of every 202 answer (docs/api.md, background tasks). */
export const taskAcceptedSchema = z
  .object({
    message: z.string(),
    task_id: z.string(),
    background_task_uuid: z.string(),
    status: z.literal('processing'),
  })
  .meta({ id: 'TaskAccepted' });
export type TaskAccepted = z.infer<typeof taskAcceptedSchema>;
