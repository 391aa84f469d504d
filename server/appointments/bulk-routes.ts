import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { resolveImportHandler, type ResolvedImportHandler } from '../import-handlers/handlers.ts';
import {
  DRY_RUN_DESCRIPTION,
  importOrganization,
  parseDryRun,
  processingModeSchema,
  readHeader,
  receiveImport,
  type ReceivedImport,
} from '../imports/intake.ts';
import type { ImportRuntime } from '../imports/runtime.ts';
import { MAX_EXCLUDED_IN_RESULTS } from '../imports/kind.ts';
import { FIXES_TASK_DESCRIPTION, FIXES_TASK_FIELD, fixedFileMetadata } from '../imports/fixed-file.ts';
import { findJob } from '../imports/job-store.ts';
import { sendErrorReport } from '../imports/report.ts';
import { removeUpload } from '../imports/upload.ts';
import { taskAcceptedSchema } from '../tasks/schemas.ts';
import { findTask } from '../tasks/store.ts';
import { ColumnMapper } from './columns.ts';
import { APPOINTMENT_FIELDS } from './fields.ts';
import { APPOINTMENT_IMPORT_KIND, appointmentImportKind, type AppointmentJobOptions } from './import-kind.ts';
import { appointmentImportDryRunSchema } from './import-results.ts';
import { appointmentImportRecordSchema, appointmentImportResultSchema, type AppointmentImportResult } from './schemas.ts';
import { syncAnswer } from './sync-answer.ts';
import { takeUpsertedSchedules } from './store.ts';

const tag = 'Appointment schedules';

const modeOf = (value: unknown): 'background' | 'sync' => {
  const parsed = processingModeSchema.safeParse(value === '' ? undefined : value);
  if (parsed.success) return parsed.data;
  throw new ApiError('VALIDATION_ERROR', `processing_mode must be background or sync; the request has "${String(value)}".`, [
    { path: 'processing_mode', message: 'must be background or sync' },
  ]);
};

/** A spreadsheet's header row read through the import handler: missing or doubled columns are a 400 before any task starts. */
async function checkHeader(file: string, received: ReceivedImport, handler: ResolvedImportHandler, imports: ImportRuntime): Promise<void> {
  if (received.format === 'json') return;
  const { header } = await readHeader(file, received.format, imports);
  const problems = new ColumnMapper(handler.mapping).checkHeaders(header, { organizationGiven: true });
  if (problems.length === 0) return;
  const message = problems.join(' ');
  throw new ApiError('VALIDATION_ERROR', message, [{ path: 'file', message }]);
}

const fileForm = {
  type: 'object',
  required: ['file', 'organization_uuid'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'Excel (.xlsx), CSV (.csv) or JSON (.json) with appointment rows (spec 2.3)' },
    organization_uuid: { type: 'string' },
    org_identifier: { type: 'string', description: 'Import handler slug; default reads the spec column names' },
    processing_mode: { type: 'string', enum: ['background', 'sync'] },
    dry_run: { type: 'string', enum: ['true', 'false'], description: DRY_RUN_DESCRIPTION },
    [FIXES_TASK_FIELD]: { type: 'string', description: FIXES_TASK_DESCRIPTION },
  },
};

export function registerAppointmentImportRoutes(api: Api, ctx: AppContext): void {
  const settings = ctx.imports.settings;
  const db = ctx.db.kysely;

  api.route(
    {
      method: 'post',
      path: '/api/appointment_schedule/bulk',
      tag,
      summary: 'Import appointment schedules from a JSON array or an uploaded CSV, XLSX or JSON file (spec 4.3).',
      description:
        'Background (default): 202 {message, task_id, background_task_uuid, status: "processing"}; poll the task (APPOINTMENT_IMPORT), ' +
        'whose results are {upserted, excluded, excluded_appointments}. ' +
        `Sync (processing_mode=sync): 200 {appointment_schedules_upserted, excluded_appointments}, up to ${settings.syncRowCap.toLocaleString('en-US')} rows. ` +
        'dry_run=true: 200 with what the import would give, nothing written (sync: the sync answer; background: the task results plus the first ' +
        '1,000 appointment_schedules_upserted with their computed start and end). ' +
        'JSON: processing_mode, org_identifier and dry_run in the query. File: the form fields file, organization_uuid, org_identifier, processing_mode, dry_run.',
      query: z.object({
        processing_mode: z.string().optional().describe('background (default) or sync'),
        dry_run: z.string().optional().describe(DRY_RUN_DESCRIPTION),
        org_identifier: z.string().optional().describe('Import handler slug (default: the spec column names)'),
      }),
      bodyKind: 'custom',
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: z.array(appointmentImportRecordSchema) },
          'multipart/form-data': { schema: fileForm },
        },
      },
      status: 202,
      successDescription: 'Background: the import started; poll the task (APPOINTMENT_IMPORT)',
      response: taskAcceptedSchema,
      responses: {
        200: {
          description: 'Sync: the appointment import result (spec 2.4). dry_run=true: what the import would give',
          schema: z.union([appointmentImportResultSchema, appointmentImportDryRunSchema]),
        },
      },
      errors: [413, 415],
    },
    async ({ query, req, res, principal }) => {
      if (req.headers['content-length'] === '0') {
        throw new ApiError(
          'VALIDATION_ERROR',
          'The request has no body. Send a JSON array of appointments, or a file upload (multipart/form-data with a "file" field).',
          [{ path: 'body', message: 'Required' }],
        );
      }
      ctx.imports.warm(APPOINTMENT_IMPORT_KIND);
      // Required columns are checked below with the import handler, which a file form names only in its fields.
      const received = await receiveImport(req, res, ctx.imports, appointmentImportKind, { json: true, file: true });
      const absolute = path.join(settings.dataDir, received.file.uploadFile);
      let started;
      const collectKey = randomUUID();
      let mode: 'background' | 'sync';
      let dryRun: boolean;
      let fixes: { fixes_task_uuid?: string } = {};
      try {
        mode = modeOf(query.processing_mode ?? received.fields.processing_mode);
        dryRun = parseDryRun(query.dry_run ?? received.fields.dry_run);
        const organization = importOrganization(received, principal);
        const handler = await resolveImportHandler(db, organization, query.org_identifier ?? received.fields.org_identifier);
        await checkHeader(absolute, received, handler, ctx.imports);
        fixes = await fixedFileMetadata(db, received, organization);
        const options: AppointmentJobOptions = {
          handler_slug: handler.slug,
          columnAliases: handler.mapping,
          collect_key: mode === 'sync' || dryRun ? collectKey : null,
          collect_limit: mode === 'sync' ? null : MAX_EXCLUDED_IN_RESULTS,
        };
        started = { organization, handler, options };
      } catch (error) {
        removeUpload(settings, received.file);
        throw error;
      }
      const request = {
        kind: APPOINTMENT_IMPORT_KIND,
        source: received.source,
        format: received.format,
        uploadFile: received.file.uploadFile,
        organizationUuid: started.organization,
        mode,
        options: started.options,
      };
      if (dryRun) {
        res.status(200).json(await ctx.imports.dryRun(request));
        return;
      }
      let submitted;
      try {
        submitted = await ctx.imports.submit({
          ...request,
          taskType: appointmentImportKind.taskType(received.source),
          createdByUuid: principal.keyUuid,
          metadata:
            received.source === 'file'
              ? {
                  filename: received.file.originalName ?? `upload.${received.format}`,
                  import_type: received.format,
                  source: 'file_upload',
                  org_identifier: started.handler.slug,
                  ...fixes,
                }
              : { import_type: 'json', source: 'api', org_identifier: started.handler.slug },
        });
      } catch (error) {
        if (mode === 'sync') await takeUpsertedSchedules(db, collectKey);
        throw error;
      }
      const { task, results } = submitted;
      res.setHeader('X-Background-Task-Uuid', task.uuid);
      if (results) {
        const encoding = results.encoding as AppointmentImportResult['encoding'];
        res.status(200).json({ ...(await syncAnswer(db, task.uuid, collectKey)), ...(encoding ? { encoding } : {}) });
        return;
      }
      res
        .status(202)
        .json({ message: 'Appointment import started.', task_id: task.task_id, background_task_uuid: task.uuid, status: 'processing' });
    },
  );

  api.route(
    {
      method: 'get',
      path: '/api/appointment_schedule/bulk/errors/{background_task_uuid}',
      tag,
      summary: 'Download every row excluded by an appointment import: its columns plus row_number and error (spec 4.5).',
      description:
        "format (csv or xlsx) defaults to the uploaded file's format (csv for JSON imports). CSV cells that a spreadsheet would run as a " +
        'formula start with an apostrophe. Fix the rows in the file and import it again: row_number and error are ignored on import.',
      params: z.object({ background_task_uuid: z.string() }),
      query: z.object({
        org_identifier: z
          .string()
          .optional()
          .describe("Import handler slug (checked; the report keeps the uploaded file's own column titles)"),
        format: z.enum(['csv', 'xlsx']).optional().describe("csv or xlsx; default the upload's format"),
      }),
      responseContent: {
        'text/csv': 'The error report',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'The error report',
      },
      errors: [409],
    },
    async ({ params, query, res, principal }) => {
      const task = await findTask(db, params.background_task_uuid);
      const job = task && task.organization_uuid === principal.organizationUuid ? await findJob(db, task.uuid) : undefined;
      if (!task || !job || job.kind !== APPOINTMENT_IMPORT_KIND) throw notFound(`Appointment import task ${params.background_task_uuid}`);
      await resolveImportHandler(db, task.organization_uuid, query.org_identifier);
      if (task.status === 'PENDING' || task.status === 'PROCESSING') {
        throw new ApiError('CONFLICT', 'The import is still running; download the error report when the task is COMPLETED or FAILED.');
      }
      if (job.excluded_count === 0) throw notFound(`Excluded rows of task ${task.uuid} (the import excluded none)`);
      const isJson = job.format === 'json';
      const headers = job.headers ? (JSON.parse(job.headers) as string[]) : [...APPOINTMENT_FIELDS];
      await sendErrorReport(
        res,
        db,
        task.uuid,
        {
          columns: isJson ? [...APPOINTMENT_FIELDS] : headers,
          rowsAreObjects: isJson,
          rowNumberOffset: isJson ? 1 : 2,
          excludedCount: job.excluded_count,
        },
        query.format ?? (job.format === 'xlsx' ? 'xlsx' : 'csv'),
        `appointment-import-errors-${task.uuid}`,
      );
    },
  );
}
