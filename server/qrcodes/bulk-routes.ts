import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { registerBulkImportRoutes } from '../imports/bulk-import-routes.ts';
import { qrCodeImportEntry } from './import-entry.ts';
import { qrCodeImportKind } from './import-kind.ts';
import {
  qrCodeFileImportResultsSchema,
  qrCodeImportAnswerSchema,
  qrCodeImportDryRunSchema,
  qrCodeImportRecordSchema,
} from './import-results.ts';

export function registerQrCodeImportRoutes(api: Api, ctx: AppContext): void {
  registerBulkImportRoutes(api, ctx, {
    kindId: qrCodeImportEntry.id,
    kind: qrCodeImportKind,
    tag: 'QR code imports',
    form: { fileDescription: 'CSV, Excel (.xlsx) or JSON file' },
    bulk: {
      path: qrCodeImportEntry.paths.upload,
      summary: 'Import QR code addresses from a JSON array (task IMPORT) or an uploaded CSV, XLSX or JSON file (task QR_IMPORT).',
      description: (settings) =>
        `Background (default): 202 {message, task_id, background_task_uuid, status: "processing"}; poll the task. ` +
        `Sync (processing_mode=sync): 200 with the task's results, up to ${settings.syncRowCap.toLocaleString('en-US')} rows. ` +
        'dry_run=true (query or form field): 200 with the results the import would give, nothing written. ' +
        `Uploads up to ${Math.round(settings.maxUploadBytes / 1048576)} MB.`,
      record: qrCodeImportRecordSchema,
      successDescription: 'Background: the import started; poll the task',
      sync: {
        description: "Sync: the task's results. dry_run=true: the results the import would give",
        schema: qrCodeImportAnswerSchema.or(qrCodeImportDryRunSchema),
      },
      startedMessage: 'Import started.',
    },
    syncFile: {
      path: '/api/qrcodes/bulk-import',
      summary: 'Import QR code addresses from a CSV file, synchronously: answers with the results (inserted, excluded, excluded_data).',
      description: (settings) =>
        `Multipart: file (CSV), organization_uuid, optionally dry_run. At most ${settings.syncRowCap.toLocaleString('en-US')} rows; use POST /api/qrcodes/bulk for more.`,
      formats: ['csv'],
      successDescription: "The task's results, or with dry_run=true the results the import would give",
      response: qrCodeFileImportResultsSchema.or(qrCodeImportDryRunSchema),
    },
    errorReport: {
      path: qrCodeImportEntry.paths.errorReport,
      summary: 'Download every excluded row of a QR code import: its columns plus row_number and error (CSV or XLSX).',
      description:
        "format defaults to the uploaded file's format (csv for JSON imports). CSV cells that would run as formulas start with an apostrophe.",
      taskNoun: 'QR code import task',
      filePrefix: 'qr-import-errors',
    },
    template: {
      path: qrCodeImportEntry.paths.template,
      summary: 'Download the CSV template of a QR code import: the columns in order and one example row.',
      filename: qrCodeImportEntry.templateFileName,
    },
  });
}
