import { SANDBOX_EXTENSION, sandboxOnly } from '../http/sandbox-only.ts';
import { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Response } from 'express';
import type { Api } from '../http/api.ts';
import { JsonFile, sendJsonFile } from '../http/json-file.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { type BackgroundTask, taskAcceptedSchema } from '../tasks/schemas.ts';
import { findTask } from '../tasks/store.ts';
import { FIXES_TASK_DESCRIPTION, FIXES_TASK_FIELD, fixedFileMetadata } from './intake/fixed-file.ts';
import {
  DRY_RUN_DESCRIPTION,
  importOrganization,
  inspectFileLayout,
  parseDryRun,
  processingModeSchema,
  type ReceivedImport,
  receiveImport,
} from './intake/intake.ts';
import { findJob, jobFromRow } from './workers/job-store.ts';
import { LAYOUT_FORM_PROPERTIES, parseLayoutRequest } from './intake/layout-request.ts';
import type { ResolvedLayout } from './intake/layout.ts';
import { fileLayoutOf, sheetToName, withFileLayout } from './engine/file-layout.ts';
import type { ImportKind } from './kind.ts';
import { taskTypeOf } from './kinds.ts';
import { sendErrorReport, templateCsv } from './reports/report.ts';
import type { ImportSettings } from './settings.ts';
import { DEFAULT_IMPORT_LIMITS } from './limits.ts';
import { type ImportFormat, isWorkbookFormat } from './intake/sniff.ts';
import type { ImportKindId } from './schemas.ts';

type Mode = 'background' | 'sync';
type Query = Record<string, string | undefined>;
type Text = string | ((settings: ImportSettings) => string);

/** What a kind checks and adds before its import starts, while the route still holds the upload. */
export interface PreparedImport {
  /** The job's options (passed to the kind's writer and results). */
  options?: Record<string, unknown>;
  /** Added to the task's metadata, after filename, import_type and source. */
  metadata?: Record<string, unknown>;
  /** The sync answer made from the finished task (default: its results as they are). */
  answer?(task: BackgroundTask, results: Record<string, unknown>): Promise<unknown>;
  /** The import could not start: undo what prepare set aside. */
  abandon?(): Promise<void>;
  /** A file's header as the import will read it: a 400 when the kind cannot import it, else the options to run with (default: as prepared). */
  checkLayout?(layout: ResolvedLayout, options: Record<string, unknown>): Record<string, unknown>;
}

export interface PrepareInput {
  received: ReceivedImport;
  /** Absolute path of the upload. */
  file: string;
  organization: string;
  mode: Mode;
  dryRun: boolean;
  query: Query;
}

/**
 * One import kind's bulk endpoints: the kind, its paths and documentation, and what it checks
 * beyond the common steps (upload, sniff, header check, organization, fixed-file link, dry run,
 * sync or background, error report).
 */
export interface BulkImportRoutes {
  /** The kind's id, as import jobs store it. */
  kindId: ImportKindId;
  kind: ImportKind;
  tag: string;
  /** The multipart form: the file's description and the kind's own fields (listed after organization_uuid). */
  form: { fileDescription: string; fields?: Record<string, unknown> };
  /** POST of a JSON array or a file, background (202) or sync (200). */
  bulk: {
    path: string;
    summary: string;
    description: Text;
    /** Query fields besides processing_mode and dry_run. */
    query?: z.ZodRawShape;
    record: z.ZodType;
    successDescription: string;
    sync: { description: string; schema: z.ZodType };
    /** The 202 answer's message. */
    startedMessage: string;
    /** A request with Content-Length 0 is refused with this message (details on `body`) before anything is read. */
    emptyBodyMessage?: string;
    /** The processing_mode error quotes the value the request had. */
    quoteBadMode?: boolean;
  };
  /** POST of a file that always runs sync (200 with the results). */
  syncFile?: { path: string; summary: string; description: Text; formats: ImportFormat[]; successDescription: string; response: z.ZodType };
  /** GET the excluded rows of a finished import as CSV or XLSX. */
  errorReport: {
    path: string;
    summary: string;
    description: string;
    /** Query fields before format. */
    query?: z.ZodRawShape;
    /** Names the task in a 404 ("QR code import task"). */
    taskNoun: string;
    /** The download's file name before the task uuid. */
    filePrefix: string;
    /** Checks run once the task is found (e.g. org_identifier names a handler). */
    check?(task: BackgroundTask, query: Query): Promise<void>;
  };
  /** GET the CSV template: the columns in order and the kind's example row. */
  template?: { path: string; summary: string; filename: string };
  prepare?(input: PrepareInput): Promise<PreparedImport>;
}

const dryRunQuery = sandboxOnly(z.string().describe(DRY_RUN_DESCRIPTION)).optional();

/** A 200 with res.json, or a big answer streamed from its file as res.json would send it (with the ETag). */
function sendAnswer(res: Response, answer: unknown): Promise<void> {
  if (answer instanceof JsonFile) return sendJsonFile(res, 200, answer, { etag: true });
  res.status(200).json(answer);
  return Promise.resolve();
}

const textOf = (text: Text, settings: ImportSettings) => (typeof text === 'string' ? text : text(settings));

/** The workbook formats only this sandbox reads, said on each upload route that takes them. */
export const SANDBOX_WORKBOOKS_NOTE = `This sandbox also reads Excel 97-2003 (.xls) and OpenDocument (.ods) workbooks, recognised by their content, with the same sheet and header_row choice and row numbers as .xlsx (read whole into memory: at most ${DEFAULT_IMPORT_LIMITS.maxXlsOdsCells.toLocaleString('en-US')} cells by default, serve --max-xls-ods-cells); the real service takes CSV, XLSX and JSON only.`;

function fileForm(routes: BulkImportRoutes, withMode: boolean, workbooks: boolean) {
  return {
    type: 'object',
    required: ['file', 'organization_uuid'],
    properties: {
      file: {
        type: 'string',
        format: 'binary',
        description: workbooks ? `${routes.form.fileDescription}. ${SANDBOX_WORKBOOKS_NOTE}` : routes.form.fileDescription,
      },
      organization_uuid: { type: 'string' },
      ...routes.form.fields,
      ...(withMode ? { processing_mode: { type: 'string', enum: ['background', 'sync'] } } : {}),
      dry_run: { type: 'string', enum: ['true', 'false'], description: DRY_RUN_DESCRIPTION, [SANDBOX_EXTENSION]: true },
      [FIXES_TASK_FIELD]: { type: 'string', description: FIXES_TASK_DESCRIPTION, [SANDBOX_EXTENSION]: true },
      ...LAYOUT_FORM_PROPERTIES,
    },
  };
}

/** The size of a request's file as far as its headers tell (a JSON body: none; a body of unknown length: undefined). */
function uploadBytes(req: { headers: Record<string, string | string[] | undefined> }): number | undefined {
  if (!String(req.headers['content-type'] ?? '').startsWith('multipart/')) return 0;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) ? length : undefined;
}

function parseMode(value: unknown, quote: boolean): Mode {
  const parsed = processingModeSchema.safeParse(value === '' ? undefined : value);
  if (parsed.success) return parsed.data;
  const message = `processing_mode must be background or sync${quote ? `; the request has "${String(value)}".` : '.'}`;
  throw new ApiError('VALIDATION_ERROR', message, [{ path: 'processing_mode', message: 'must be background or sync' }]);
}

/** Registers a kind's bulk import endpoints (see BulkImportRoutes). */
export function registerBulkImportRoutes(api: Api, ctx: AppContext, routes: BulkImportRoutes): void {
  const settings = ctx.imports.settings;
  const db = ctx.db.kysely;
  const { kind, kindId, tag } = routes;

  type Started = { dryRunAnswer: unknown } | { task: BackgroundTask; answer?: unknown };

  /**
   * A file's layout settled (sheet, header row, each header's column, date orders) and kept in the
   * job's options, so the import reads the file as its preview did; JSON runs with the options as prepared.
   */
  const layoutOptions = async (
    received: ReceivedImport,
    prepared: PreparedImport,
    organization: string,
  ): Promise<Record<string, unknown> | undefined> => {
    if (received.source !== 'file') return prepared.options;
    const request = parseLayoutRequest(received.fields, kind);
    if (received.format === 'json') {
      if (request.sheet !== undefined || request.headerRow !== undefined) {
        const message = 'A JSON file has no sheets or header row: leave sheet and header_row out.';
        throw new ApiError('VALIDATION_ERROR', message, [{ path: request.sheet !== undefined ? 'sheet' : 'header_row', message }]);
      }
      return prepared.options;
    }
    const asked = withFileLayout(prepared.options ?? {}, {
      ...(request.mapping ? { mapping: request.mapping } : {}),
      ...(request.dateOrders ? { dateOrders: request.dateOrders } : {}),
    });
    const layout = await inspectFileLayout({
      file: received.file.lease.path,
      format: received.format,
      kindId,
      kind,
      organizationUuid: organization,
      options: asked,
      position: {
        ...(request.sheet === undefined ? {} : { sheet: request.sheet }),
        ...(request.headerRow === undefined ? {} : { headerRow: request.headerRow }),
      },
      imports: ctx.imports,
    });
    const settled = withFileLayout(prepared.options ?? {}, layout.fileLayout);
    return prepared.checkLayout ? prepared.checkLayout(layout, settled) : settled;
  };

  /**
   * Checks the request, then runs the dry run or submits the import. The route owns the upload
   * until then: submit hands it to the import's job, and on every other path it is removed here.
   */
  const start = async (received: ReceivedImport, principal: Principal, query: Query, modeOf: () => Mode): Promise<Started> => {
    const upload = received.file.lease;
    try {
      const mode = modeOf();
      const dryRun = parseDryRun(query.dry_run ?? received.fields.dry_run);
      const organization = importOrganization(received, principal);
      const prepared = (await routes.prepare?.({ received, file: upload.path, organization, mode, dryRun, query })) ?? {};
      const options = await layoutOptions(received, prepared, organization);
      const fixes = await fixedFileMetadata(db, received, organization);
      const request = {
        kind: kindId,
        source: received.source,
        format: received.format,
        upload,
        organizationUuid: organization,
        mode,
        ...(options ? { options } : {}),
        answerAsIs: !prepared.answer,
      };
      if (dryRun) return { dryRunAnswer: await ctx.imports.dryRun(request) };
      let submitted: Awaited<ReturnType<typeof ctx.imports.submit>>;
      try {
        submitted = await ctx.imports.submit({
          ...request,
          taskType: taskTypeOf(kindId, received.source),
          createdByUuid: principal.keyUuid,
          metadata:
            received.source === 'file'
              ? {
                  filename: received.file.originalName ?? `upload.${received.format}`,
                  import_type: received.format,
                  source: 'file_upload',
                  ...prepared.metadata,
                  ...fixes,
                }
              : { import_type: 'json', source: 'api', ...prepared.metadata },
        });
      } catch (error) {
        await prepared.abandon?.();
        throw error;
      }
      const { task, results } = submitted;
      if (!results) return { task };
      if (!prepared.answer) return { task, answer: results };
      // Asked for as an object (answerAsIs false): the kind makes its own answer from it.
      return { task, answer: await prepared.answer(task, results as Record<string, unknown>) };
    } finally {
      await upload.release();
    }
  };

  const { bulk } = routes;
  api.route(
    {
      method: 'post',
      path: bulk.path,
      tag,
      summary: bulk.summary,
      description: `${textOf(bulk.description, settings)} ${SANDBOX_WORKBOOKS_NOTE}`,
      query: z.object({
        processing_mode: z.string().optional().describe('background (default) or sync'),
        dry_run: dryRunQuery,
        ...bulk.query,
      }),
      bodyKind: 'custom',
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: z.array(bulk.record) },
          'multipart/form-data': { schema: fileForm(routes, true, true) },
        },
      },
      status: 202,
      successDescription: bulk.successDescription,
      response: taskAcceptedSchema,
      responses: { 200: bulk.sync },
      errors: [413, 415],
    },
    async ({ query, req, res, principal }) => {
      if (bulk.emptyBodyMessage && req.headers['content-length'] === '0') {
        throw new ApiError('VALIDATION_ERROR', bulk.emptyBodyMessage, [{ path: 'body', message: 'Required' }]);
      }
      const received = await receiveImport(req, res, ctx.imports, {
        json: true,
        file: true,
        onStart: (fileName) => ctx.imports.warm(kindId, uploadBytes(req), fileName),
      });
      const asked = query as Query;
      const started = await start(received, principal, asked, () =>
        parseMode(asked.processing_mode ?? received.fields.processing_mode, bulk.quoteBadMode === true),
      );
      if ('dryRunAnswer' in started) {
        await sendAnswer(res, started.dryRunAnswer);
        return;
      }
      const { task, answer } = started;
      res.setHeader('X-Background-Task-Uuid', task.uuid);
      if (answer !== undefined) {
        await sendAnswer(res, answer);
        return;
      }
      res.status(202).json({ message: bulk.startedMessage, task_id: task.task_id, background_task_uuid: task.uuid, status: 'processing' });
    },
  );

  const { syncFile } = routes;
  if (syncFile) {
    api.route(
      {
        method: 'post',
        path: syncFile.path,
        tag,
        summary: syncFile.summary,
        description: textOf(syncFile.description, settings),
        query: z.object({ dry_run: dryRunQuery }),
        bodyKind: 'custom',
        requestBody: { required: true, content: { 'multipart/form-data': { schema: fileForm(routes, false, false) } } },
        successDescription: syncFile.successDescription,
        response: syncFile.response,
        errors: [413, 415],
      },
      async ({ query, req, res, principal }) => {
        const received = await receiveImport(req, res, ctx.imports, {
          json: false,
          file: true,
          fileFormats: syncFile.formats,
          onStart: (fileName) => ctx.imports.warm(kindId, uploadBytes(req), fileName),
        });
        const started = await start(received, principal, query, () => 'sync');
        if ('dryRunAnswer' in started) return started.dryRunAnswer;
        res.setHeader('X-Background-Task-Uuid', started.task.uuid);
        return started.answer;
      },
    );
  }

  const report = routes.errorReport;
  api.route(
    {
      method: 'get',
      path: report.path,
      tag,
      summary: report.summary,
      description: report.description,
      params: z.object({ background_task_uuid: z.string() }),
      query: z.object({
        ...report.query,
        format: z
          .enum(['csv', 'xlsx'])
          .optional()
          .describe('csv or xlsx; default xlsx for a workbook upload (.xlsx, and .xls or .ods in this sandbox), csv for CSV and JSON'),
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
      if (!task || !job || job.kind !== kindId) throw notFound(`${report.taskNoun} ${params.background_task_uuid}`);
      await report.check?.(task, query as Query);
      if (task.status === 'PENDING' || task.status === 'PROCESSING') {
        throw new ApiError('CONFLICT', 'The import is still running; download the error report when the task is COMPLETED or FAILED.');
      }
      if (job.excluded_count === 0) throw notFound(`Excluded rows of task ${task.uuid} (the import excluded none)`);
      const isJson = job.format === 'json';
      const headers = job.headers ? (JSON.parse(job.headers) as string[]) : [...kind.columns];
      await sendErrorReport(
        res,
        db,
        task.uuid,
        {
          columns: isJson ? [...kind.columns] : headers,
          rowsAreObjects: isJson,
          excludedCount: job.excluded_count,
          sheet: sheetToName(fileLayoutOf(jobFromRow(job).options)),
        },
        query.format ?? (isWorkbookFormat(job.format) ? 'xlsx' : 'csv'),
        `${report.filePrefix}-${task.uuid}`,
      );
    },
  );

  const { template } = routes;
  if (template) {
    api.route(
      { method: 'get', path: template.path, tag, summary: template.summary, responseContent: { 'text/csv': 'The template' } },
      async ({ res, principal }) => {
        res
          .status(200)
          .type('text/csv; charset=utf-8')
          .setHeader('Content-Disposition', `attachment; filename="${template.filename}"`)
          .send(templateCsv(kind.columns, { ...kind.exampleRow, organization_uuid: principal.organizationUuid }));
      },
    );
  }
}
