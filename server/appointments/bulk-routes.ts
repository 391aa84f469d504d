import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { ApiError } from '../http/errors.ts';
import { resolveImportHandler } from '../import-handlers/handlers.ts';
import { registerBulkImportRoutes } from '../imports/bulk-import-routes.ts';
import { type AppointmentField, isAppointmentField } from './fields.ts';
import { MAX_EXCLUDED_IN_RESULTS } from '../imports/kind.ts';
import { ColumnMapper } from './columns.ts';
import { appointmentImportEntry } from './import-entry.ts';
import { type AppointmentJobOptions, appointmentImportKind } from './import-kind.ts';
import { appointmentImportDryRunSchema } from './import-results.ts';
import { appointmentImportRecordSchema, appointmentImportResultSchema } from './schemas.ts';
import { takeUpsertedSchedules } from './store.ts';
import { syncAnswer, syncAnswerExtras } from './sync-answer.ts';
import { organizationDateOrder } from '../settings/date-order.ts';

export function registerAppointmentImportRoutes(api: Api, ctx: AppContext): void {
  const db = ctx.db.kysely;
  registerBulkImportRoutes(api, ctx, {
    kindId: appointmentImportEntry.id,
    kind: appointmentImportKind,
    tag: 'Appointment schedules',
    form: {
      fileDescription: 'Excel (.xlsx), CSV (.csv) or JSON (.json) with appointment rows',
      fields: { org_identifier: { type: 'string', description: 'Import handler slug; default reads the spec column names' } },
    },
    bulk: {
      path: appointmentImportEntry.paths.upload,
      summary: 'Import appointment schedules from a JSON array or an uploaded CSV, XLSX or JSON file.',
      description: (settings) =>
        'Background (default): 202 {message, task_id, background_task_uuid, status: "processing"}; poll the task (APPOINTMENT_IMPORT), ' +
        'whose results are {upserted, excluded, excluded_appointments}. ' +
        `Sync (processing_mode=sync): 200 {appointment_schedules_upserted, excluded_appointments}, up to ${settings.syncRowCap.toLocaleString('en-US')} rows. ` +
        'dry_run=true: 200 with what the import would give, nothing written (sync: the sync answer; background: the task results plus the first ' +
        '1,000 appointment_schedules_upserted with their computed start and end). ' +
        'JSON: processing_mode, org_identifier and dry_run in the query. File: the form fields file, organization_uuid, org_identifier, processing_mode, dry_run.',
      query: { org_identifier: z.string().optional().describe('Import handler slug (default: the spec column names)') },
      record: appointmentImportRecordSchema,
      successDescription: 'Background: the import started; poll the task (APPOINTMENT_IMPORT)',
      sync: {
        description: 'Sync: the appointment import result. dry_run=true: what the import would give',
        schema: z.union([appointmentImportResultSchema, appointmentImportDryRunSchema]),
      },
      startedMessage: 'Appointment import started.',
      emptyBodyMessage:
        'The request has no body. Send a JSON array of appointments, or a file upload (multipart/form-data with a "file" field).',
      quoteBadMode: true,
    },
    errorReport: {
      path: appointmentImportEntry.paths.errorReport,
      summary: 'Download every row excluded by an appointment import: its columns plus row_number and error.',
      description:
        "format (csv or xlsx) defaults to the uploaded file's format (csv for JSON imports). CSV cells that a spreadsheet would run as a " +
        'formula start with an apostrophe. Fix the rows in the file and import it again: row_number and error are ignored on import.',
      query: {
        org_identifier: z
          .string()
          .optional()
          .describe("Import handler slug (checked; the report keeps the uploaded file's own column titles)"),
      },
      taskNoun: 'Appointment import task',
      filePrefix: 'appointment-import-errors',
      check: async (task, query) => {
        await resolveImportHandler(db, task.organization_uuid, query.org_identifier);
      },
    },
    /** The import handler (org_identifier) maps the file's column titles; a spreadsheet missing or doubling one is a 400 before any task starts. */
    prepare: async ({ received, organization, mode, dryRun, query }) => {
      const handler = await resolveImportHandler(db, organization, query.org_identifier ?? received.fields.org_identifier);
      const collectKey = randomUUID();
      const options: AppointmentJobOptions = {
        handler_slug: handler.slug,
        columnAliases: handler.mapping,
        collect_key: mode === 'sync' || dryRun ? collectKey : null,
        collect_limit: mode === 'sync' ? null : MAX_EXCLUDED_IN_RESULTS,
        date_order_setting: organizationDateOrder(ctx.db, organization),
      };
      return {
        options,
        metadata: { org_identifier: handler.slug },
        answer: async (task, results) => {
          return { ...(await syncAnswer(db, task.uuid, collectKey)), ...syncAnswerExtras(results) };
        },
        /** The handler's titles and the matches the file got name the columns; a file missing or doubling one is a 400. */
        checkLayout: (layout, settled) => {
          const matched: Record<string, AppointmentField> = { ...handler.mapping };
          const read: string[] = [];
          for (const match of layout.matches) {
            if (!match.applied || match.column === null || !isAppointmentField(match.column)) continue;
            // A header that is the field's own name needs no title: messages name the field as before.
            if (match.source !== 'name') matched[match.header.trim()] = match.column;
            read.push(match.header);
          }
          const problems = new ColumnMapper(matched).checkHeaders(read, { organizationGiven: true });
          if (problems.length > 0) {
            const message = problems.join(' ');
            throw new ApiError('VALIDATION_ERROR', message, [{ path: 'file', message }]);
          }
          return { ...settled, columnAliases: matched };
        },
        abandon: async () => {
          if (mode === 'sync') await takeUpsertedSchedules(db, collectKey);
        },
      };
    },
  });
}
