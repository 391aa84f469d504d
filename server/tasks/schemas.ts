import { z } from 'zod';
import { pageQuerySchema, pageSchema } from '../http/pagination.ts';

export const taskStatuses = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export const taskStatusSchema = z.enum(taskStatuses);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

export const taskTypes = ['IMPORT', 'QR_IMPORT', 'APPOINTMENT_IMPORT'] as const;
export const taskTypeSchema = z.enum(taskTypes);
export type TaskType = z.infer<typeof taskTypeSchema>;

/** Spec 2.1. */
export const backgroundTaskSchema = z
  .object({
    uuid: z.string(),
    task_id: z.string(),
    task_type: z.string(),
    status: taskStatusSchema,
    progress: z.number(),
    created_by_uuid: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    organization_uuid: z.string(),
    results: z.record(z.string(), z.unknown()).nullable(),
    error_message: z.string().nullable(),
    created_on: z.string(),
    updated_on: z.string(),
  })
  .meta({ id: 'BackgroundTask' });
export type BackgroundTask = z.infer<typeof backgroundTaskSchema>;

/** Spec 2.2. */
export const backgroundTaskPageSchema = pageSchema(backgroundTaskSchema);

/** Spec 4.2. */
export const taskListQuerySchema = pageQuerySchema.extend({
  organization_uuid: z.string().min(1).describe('Organization whose tasks to list. Required.'),
  task_type: taskTypeSchema.optional().describe('Only tasks of this type.'),
  status: taskStatusSchema.optional().describe('Only tasks in this status.'),
});
export type TaskListQuery = z.infer<typeof taskListQuerySchema>;

export const taskUuidParamsSchema = z.object({ uuid: z.string().describe('Background task uuid') });

/** The body of every 202 answer (DESIGN.md). */
export const taskAcceptedSchema = z.object({
  message: z.string(),
  task_id: z.string(),
  background_task_uuid: z.string(),
  status: z.literal('processing'),
});
export type TaskAccepted = z.infer<typeof taskAcceptedSchema>;
