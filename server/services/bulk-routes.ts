import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { registerBulkImportRoutes } from '../imports/bulk-import-routes.ts';
import { serviceImportEntry } from './import-entry.ts';
import { serviceImportKind } from './import-kind.ts';
import {
  SERVICE_IMPORT_ADDITION,
  serviceImportDryRunSchema,
  serviceImportRecordSchema,
  serviceImportResultsSchema,
} from './import-results.ts';

/** The services import's endpoints (a sandbox addition), registered with the catalog's own routes. */
export function registerServiceImportRoutes(api: Api, ctx: AppContext): void {
  registerBulkImportRoutes(api, ctx, {
    kindId: serviceImportEntry.id,
    kind: serviceImportKind,
    tag: 'Services',
    form: { fileDescription: 'CSV, Excel (.xlsx) or JSON file with the columns name, code, categories' },
    bulk: {
      path: serviceImportEntry.paths.upload,
      summary:
        "Import services into the organization's catalog from a JSON array or an uploaded CSV, XLSX or JSON file (task SERVICE_IMPORT).",
      description: (settings) =>
        `${SERVICE_IMPORT_ADDITION} A row is the service with its code, else with its name (ignoring case): that service is changed, or a new one added; ` +
        'a blank code or categories cell leaves the service’s as they are; categories are names separated by ";". ' +
        'Background (default): 202 {message, task_id, background_task_uuid, status: "processing"}; poll the task. ' +
        `Sync (processing_mode=sync): 200 with the task's results, up to ${settings.syncRowCap.toLocaleString('en-US')} rows. ` +
        'dry_run=true: 200 with the results the import would give, nothing written.',
      record: serviceImportRecordSchema,
      successDescription: 'Background: the import started; poll the task (SERVICE_IMPORT)',
      sync: {
        description: "Sync: the task's results. dry_run=true: the results the import would give",
        schema: serviceImportResultsSchema.or(serviceImportDryRunSchema),
      },
      startedMessage: 'Service import started.',
    },
    errorReport: {
      path: serviceImportEntry.paths.errorReport,
      summary: 'Download every row excluded by a services import: its columns plus row_number and error (CSV or XLSX).',
      description: `${SERVICE_IMPORT_ADDITION} format defaults to the uploaded file's format (csv for JSON imports). Fix the rows and import the file as it is: row_number and error are ignored.`,
      taskNoun: 'Service import task',
      filePrefix: 'service-import-errors',
    },
    template: {
      path: serviceImportEntry.paths.template,
      summary: 'Download the CSV template of a services import: the columns in order and one example row (a sandbox addition).',
      filename: serviceImportEntry.templateFileName,
    },
  });
}
