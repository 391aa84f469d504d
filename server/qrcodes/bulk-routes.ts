import { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { ApiError, notFound } from '../http/errors.ts';
import {
  DRY_RUN_DESCRIPTION,
  importOrganization,
  parseDryRun,
  processingModeSchema,
  receiveImport,
  type ReceivedImport,
} from '../imports/intake.ts';
import { FIXES_TASK_DESCRIPTION, FIXES_TASK_FIELD, fixedFileMetadata } from '../imports/fixed-file.ts';
import { findJob } from '../imports/job-store.ts';
import { sendErrorReport, templateCsv } from '../imports/report.ts';
import { removeUpload } from '../imports/upload.ts';
import { findTask } from '../tasks/store.ts';
import { taskAcceptedSchema } from '../tasks/schemas.ts';
import { QR_CODE_IMPORT_KIND, qrCodeImportKind } from './import-kind.ts';
import {
  qrCodeFileImportResultsSchema,
  qrCodeImportAnswerSchema,
  qrCodeImportDryRunSchema,
  qrCodeImportRecordSchema,
} from './import-results.ts';

const tag = 'QR code imports';

const fileForm = (extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['file', 'organization_uuid'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'CSV, Excel (.xlsx) or JSON file' },
    organization_uuid: { type: 'string' },
    processing_mode: { type: 'string', enum: ['background', 'sync'] },
    dry_run: { type: 'string', enum: ['true', 'false'], description: DRY_RUN_DESCRIPTION },
    [FIXES_TASK_FIELD]: { type: 'string', description: FIXES_TASK_DESCRIPTION },
    ...extra,
  },
});

function parseMode(value: unknown): 'background' | 'sync' {
  const parsed = processingModeSchema.safeParse(value === '' ? undefined : value);
  if (!parsed.success)
    throw new ApiError('VALIDATION_ERROR', 'processing_mode must be background or sync.', [
      { path: 'processing_mode', message: 'must be background or sync' },
    ]);
  return parsed.data;
}

export function registerQrCodeImportRoutes(api: Api, ctx: AppContext): void {
  const settings = ctx.imports.settings;
  const kind = qrCodeImportKind;

  /** Submits the import, or with dryRun answers what it would give (the organization checked either way). */
  const start = async (received: ReceivedImport, principal: Principal, mode: 'background' | 'sync', dryRun: boolean) => {
    let organization: string;
    let fixes: { fixes_task_uuid?: string };
    try {
      organization = importOrganization(received, principal);
      fixes = await fixedFileMetadata(ctx.db.kysely, received, organization);
    } catch (error) {
      removeUpload(settings, received.file);
      throw error;
    }
    const request = {
      kind: QR_CODE_IMPORT_KIND,
      source: received.source,
      format: received.format,
      uploadFile: received.file.uploadFile,
      organizationUuid: organization,
      mode,
    };
    if (dryRun) return { dryRunAnswer: await ctx.imports.dryRun(request) };
    return ctx.imports.submit({
      ...request,
      taskType: kind.taskType(received.source),
      createdByUuid: principal.keyUuid,
      metadata:
        received.source === 'file'
          ? {
              filename: received.file.originalName ?? `upload.${received.format}`,
              import_type: received.format,
              source: 'file_upload',
              ...fixes,
            }
          : { import_type: 'json', source: 'api' },
    });
  };

  api.route(
    {
      method: 'post',
      path: '/api/qrcodes/bulk',
      tag,
      summary: 'Import QR code addresses from a JSON array (task IMPORT) or an uploaded CSV, XLSX or JSON file (task QR_IMPORT).',
      description:
        `Background (default): 202 {message, task_id, background_task_uuid, status: "processing"}; poll the task. ` +
        `Sync (processing_mode=sync): 200 with the task's results, up to ${settings.syncRowCap.toLocaleString('en-US')} rows. ` +
        'dry_run=true (query or form field): 200 with the results the import would give, nothing written. ' +
        `Uploads up to ${Math.round(settings.maxUploadBytes / 1048576)} MB.`,
      query: z.object({
        processing_mode: z.string().optional().describe('background (default) or sync'),
        dry_run: z.string().optional().describe(DRY_RUN_DESCRIPTION),
      }),
      bodyKind: 'custom',
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: z.array(qrCodeImportRecordSchema) },
          'multipart/form-data': { schema: fileForm() },
        },
      },
      status: 202,
      successDescription: 'Background: the import started; poll the task',
      response: taskAcceptedSchema,
      responses: {
        200: {
          description: "Sync: the task's results. dry_run=true: the results the import would give",
          schema: z.union([qrCodeImportAnswerSchema, qrCodeImportDryRunSchema]),
        },
      },
      errors: [413, 415],
    },
    async ({ query, req, res, principal }) => {
      ctx.imports.warm(QR_CODE_IMPORT_KIND);
      const received = await receiveImport(req, res, ctx.imports, kind, { json: true, file: true });
      let mode: 'background' | 'sync';
      let dryRun: boolean;
      try {
        mode = parseMode(query.processing_mode ?? received.fields.processing_mode);
        dryRun = parseDryRun(query.dry_run ?? received.fields.dry_run);
      } catch (error) {
        removeUpload(settings, received.file);
        throw error;
      }
      const started = await start(received, principal, mode, dryRun);
      if ('dryRunAnswer' in started) {
        res.status(200).json(started.dryRunAnswer);
        return;
      }
      const { task, results } = started;
      res.setHeader('X-Background-Task-Uuid', task.uuid);
      if (results) {
        res.status(200).json(results);
        return;
      }
      res.status(202).json({ message: 'Import started.', task_id: task.task_id, background_task_uuid: task.uuid, status: 'processing' });
    },
  );

  api.route(
    {
      method: 'post',
      path: '/api/qrcodes/bulk-import',
      tag,
      summary: 'Import QR code addresses from a CSV file, synchronously: answers with the results (inserted, excluded, excluded_data).',
      description: `Multipart: file (CSV), organization_uuid, optionally dry_run. At most ${settings.syncRowCap.toLocaleString('en-US')} rows; use POST /api/qrcodes/bulk for more.`,
      query: z.object({ dry_run: z.string().optional().describe(DRY_RUN_DESCRIPTION) }),
      bodyKind: 'custom',
      requestBody: { required: true, content: { 'multipart/form-data': { schema: fileForm({ processing_mode: undefined }) } } },
      successDescription: "The task's results, or with dry_run=true the results the import would give",
      response: z.union([qrCodeFileImportResultsSchema, qrCodeImportDryRunSchema]),
      errors: [413, 415],
    },
    async ({ query, req, res, principal }) => {
      ctx.imports.warm(QR_CODE_IMPORT_KIND);
      const received = await receiveImport(req, res, ctx.imports, kind, { json: false, file: true, fileFormats: ['csv'] });
      let dryRun: boolean;
      try {
        dryRun = parseDryRun(query.dry_run ?? received.fields.dry_run);
      } catch (error) {
        removeUpload(settings, received.file);
        throw error;
      }
      const started = await start(received, principal, 'sync', dryRun);
      if ('dryRunAnswer' in started) return started.dryRunAnswer;
      res.setHeader('X-Background-Task-Uuid', started.task.uuid);
      return started.results;
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/qrcodes/bulk/{background_task_uuid}/errors',
      tag,
      summary: 'Download every excluded row of a QR code import: its columns plus row_number and error (CSV or XLSX).',
      description:
        "format defaults to the uploaded file's format (csv for JSON imports). CSV cells that would run as formulas start with an apostrophe.",
      params: z.object({ background_task_uuid: z.string() }),
      query: z.object({ format: z.enum(['csv', 'xlsx']).optional().describe("csv or xlsx; default the upload's format") }),
      responseContent: {
        'text/csv': 'The error report',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'The error report',
      },
      errors: [409],
    },
    async ({ params, query, res, principal }) => {
      const task = await findTask(ctx.db.kysely, params.background_task_uuid);
      const job = task && task.organization_uuid === principal.organizationUuid ? await findJob(ctx.db.kysely, task.uuid) : undefined;
      if (!task || !job || job.kind !== QR_CODE_IMPORT_KIND) throw notFound(`QR code import task ${params.background_task_uuid}`);
      if (task.status === 'PENDING' || task.status === 'PROCESSING') {
        throw new ApiError('CONFLICT', 'The import is still running; download the error report when the task is COMPLETED or FAILED.');
      }
      if (job.excluded_count === 0) throw notFound(`Excluded rows of task ${task.uuid} (the import excluded none)`);
      const isJson = job.format === 'json';
      const headers = job.headers ? (JSON.parse(job.headers) as string[]) : [...kind.columns];
      await sendErrorReport(
        res,
        ctx.db.kysely,
        task.uuid,
        {
          columns: isJson ? [...kind.columns] : headers,
          rowsAreObjects: isJson,
          rowNumberOffset: isJson ? 1 : 2,
          excludedCount: job.excluded_count,
        },
        query.format ?? (job.format === 'xlsx' ? 'xlsx' : 'csv'),
        `qr-import-errors-${task.uuid}`,
      );
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/qrcodes/bulk/template',
      tag,
      summary: 'Download the CSV template of a QR code import: the columns in order and one example row.',
      responseContent: { 'text/csv': 'The template' },
    },
    async ({ res, principal }) => {
      res
        .status(200)
        .type('text/csv; charset=utf-8')
        .setHeader('Content-Disposition', 'attachment; filename="qr-code-import-template.csv"')
        .send(templateCsv(kind.columns, { ...kind.exampleRow, organization_uuid: principal.organizationUuid }));
    },
  );
}
