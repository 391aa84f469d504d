import { z } from 'zod';
import { findKeyNameByUuid } from '../auth/store.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { notFound } from '../http/errors.ts';
import { backgroundTaskSchema, type BackgroundTask, taskAcceptedSchema, taskUuidParamsSchema } from '../tasks/schemas.ts';
import { findTask } from '../tasks/store.ts';
import { findJob, type ImportJob, jobFromRow, KEPT_UPLOAD_DAYS } from './workers/job-store.ts';
import { matchHeader, withColumnAliases } from './engine/columns.ts';
import { fileLayoutOf } from './engine/file-layout.ts';
import { isImportKindId, loadKind } from './kinds.ts';
import { IMPORT_FORMATS } from './intake/sniff.ts';

const TAG = 'Background tasks';

export const importJobSchema = z
  .object({
    kind: z.string().describe('The import kind (qrcodes or appointments)'),
    format: z
      .enum(IMPORT_FORMATS)
      .describe("The upload's format, from its content. xls and ods are this sandbox's: the real service takes CSV, XLSX and JSON"),
    upload_kept: z
      .boolean()
      .describe(`Whether the uploaded file is still kept: a FAILED import keeps it ${KEPT_UPLOAD_DAYS} days for a retry, unless discarded`),
    upload_bytes: z.number().int().nullable(),
    retry_possible: z.boolean().describe('FAILED, not retried yet, and its upload kept'),
    retried_by: z.string().nullable().describe('The task that retried this one'),
    retry_of: z.string().nullable().describe('The task this one retried'),
    cancel_requested_by: z.string().nullable().describe('Who asked to cancel it (an API key name)'),
    sheet: z.string().nullable().describe("The workbook's sheet the rows were read from; null for CSV and JSON"),
    sheet_count: z
      .number()
      .int()
      .nullable()
      .describe(
        "How many sheets the workbook has: where it has several, row numbers are given with the sheet's name; null for CSV, JSON and imports from before it was kept",
      ),
    columns: z
      .array(z.object({ header: z.string(), column: z.string() }))
      .describe("The file's own column names (its header row) and the kind's column each fills, in file order; empty for JSON"),
  })
  .meta({ id: 'ImportJob' });

/** The file's header cells and the kind's column each one fills, as the import read them. */
async function fileColumns(job: ImportJob, storedHeaders: string | null): Promise<{ header: string; column: string }[]> {
  if (job.format === 'json' || storedHeaders === null || !isImportKindId(job.kind)) return [];
  const headers = JSON.parse(storedHeaders) as string[];
  const { mapping } = matchHeader(withColumnAliases(await loadKind(job.kind), job.options), headers);
  return headers.flatMap((header, i) => {
    const column = mapping[i];
    return column ? [{ header, column }] : [];
  });
}

/** Cancel, retry and the kept upload of an import task: the import's side of /api/background-tasks. */
export function registerImportTaskRoutes(api: Api, ctx: AppContext): void {
  const task = async (uuid: string, organizationUuid: string): Promise<BackgroundTask> => {
    const found = await findTask(ctx.db.kysely, uuid);
    if (!found || found.organization_uuid !== organizationUuid) throw notFound(`Background task ${uuid}`);
    return found;
  };

  api.route(
    {
      method: 'get',
      path: '/api/background-tasks/uuid/{background_task_uuid}/import',
      tag: TAG,
      summary: "An import task's job: its kind and format, whether its upload is kept for a retry, and its retry and cancel links.",
      params: taskUuidParamsSchema,
      response: importJobSchema,
    },
    async ({ params, principal }) => {
      const found = await task(params.background_task_uuid, principal.organizationUuid);
      const row = await findJob(ctx.db.kysely, found.uuid);
      if (!row) throw notFound(`The import of background task ${found.uuid}`);
      const job = jobFromRow(row);
      const upload = ctx.imports.keptUpload(job);
      const retryOf = found.metadata?.retry_of;
      return {
        kind: job.kind,
        format: job.format,
        upload_kept: upload.kept && found.status !== 'COMPLETED' && !job.retriedBy,
        upload_bytes: upload.kept ? upload.bytes : null,
        retry_possible: found.status === 'FAILED' && !job.retriedBy && upload.kept,
        retried_by: job.retriedBy ?? null,
        retry_of: typeof retryOf === 'string' ? retryOf : null,
        cancel_requested_by: job.cancelRequestedBy ?? null,
        sheet: fileLayoutOf(job.options).sheet ?? null,
        sheet_count: fileLayoutOf(job.options).sheets ?? null,
        columns: await fileColumns(job, row.headers),
      };
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/background-tasks/uuid/{background_task_uuid}/cancel',
      tag: TAG,
      summary: 'Cancel a PENDING or PROCESSING import.',
      description:
        'A PENDING import ends FAILED at once. A PROCESSING one stops after its current batch (at most 5,000 rows) and ends FAILED; ' +
        'the rows it wrote stay, its results count them and its error_message says so. Answers the task as it is now: poll it until FAILED.',
      params: taskUuidParamsSchema,
      response: backgroundTaskSchema,
      errors: [409],
    },
    async ({ params, principal }) => {
      const found = await task(params.background_task_uuid, principal.organizationUuid);
      const by = (await findKeyNameByUuid(ctx.db.kysely, principal.keyUuid))?.name ?? '';
      return ctx.imports.cancel(found, by);
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/background-tasks/uuid/{background_task_uuid}/retry',
      tag: TAG,
      summary: 'Run a FAILED import again from its kept upload, as a new background task.',
      description: `The new task's metadata has retry_of (this task); this task's import names it as retried_by. The upload is kept ${KEPT_UPLOAD_DAYS} days after the failure.`,
      params: taskUuidParamsSchema,
      status: 202,
      response: taskAcceptedSchema,
      errors: [409],
    },
    async ({ params, principal }) => {
      const found = await task(params.background_task_uuid, principal.organizationUuid);
      const retry = await ctx.imports.retry(found, principal.keyUuid);
      return { message: 'Retry started.', task_id: retry.task_id, background_task_uuid: retry.uuid, status: 'processing' as const };
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/api/background-tasks/uuid/{background_task_uuid}/upload',
      tag: TAG,
      summary: 'Discard the upload a FAILED import keeps for a retry.',
      params: taskUuidParamsSchema,
      status: 204,
      errors: [409],
    },
    async ({ params, principal }) => {
      await ctx.imports.discardUpload(await task(params.background_task_uuid, principal.organizationUuid));
    },
  );
}
