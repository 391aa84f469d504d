import { sandboxOnly } from '../http/sandbox-only.ts';
import { z } from 'zod';
import { dryRunFields, importResultFields, resultCount, sandboxCount } from '../imports/engine/result-fields.ts';
import { rowNumberSchema } from '../imports/engine/row-number-schema.ts';
import { QR_ECHO_FIELDS, QR_IMPORT_COLUMNS } from './import-row.ts';

/** Keys of an excluded row's echo that the service's contract does not name: optional, so its answers fit too. */
const SANDBOX_ECHO_FIELDS: ReadonlySet<string> = new Set(['name', 'qr_code_external_reference_id']);

/** An excluded row as QR code import results show it (docs/api.md `excluded_data`, `excluded_qr_codes`). */
export const excludedQrCodeRowSchema = z
  .object({
    index: z.number().int().min(0).describe('0-based position among the data rows (array element for JSON)'),
    row_number: rowNumberSchema,
    error: z.string().describe('Why the row was excluded'),
    row: z
      .object(
        Object.fromEntries(
          QR_ECHO_FIELDS.map((field) => [
            field,
            SANDBOX_ECHO_FIELDS.has(field)
              ? sandboxOnly(
                  z.string().nullable().describe("This sandbox's: it identifies the row; the real service may not send it"),
                ).optional()
              : z.string().nullable(),
          ]),
        ),
      )
      .describe("The row's name, reference and address fields as given"),
  })
  .meta({ id: 'ExcludedQrCodeRow' });

/** Results of a JSON bulk import (task IMPORT, docs/api.md). */
export const qrCodeJsonImportResultsSchema = z
  .object({
    qr_code_inserted: resultCount('New QR codes'),
    qr_code_restored: resultCount('Deleted QR codes brought back by the import'),
    qr_code_tags_created: resultCount('New tags'),
    excluded_qr_codes: z.array(excludedQrCodeRowSchema).describe('The first 1,000 excluded rows; all of them are in the error report'),
    qr_code_updated: sandboxCount('Existing QR codes updated (same external reference)'),
    excluded_count: sandboxCount('Every excluded row'),
    ...importResultFields,
  })
  .meta({ id: 'QrCodeJsonImportResults' });
export type QrCodeJsonImportResults = z.infer<typeof qrCodeJsonImportResultsSchema>;

/** Results of a file import (task QR_IMPORT, docs/api.md). */
export const qrCodeFileImportResultsSchema = z
  .object({
    inserted: resultCount('New QR codes'),
    excluded: resultCount('Every excluded row'),
    excluded_data: z.array(excludedQrCodeRowSchema).describe('The first 1,000 excluded rows; all of them are in the error report'),
    restored: sandboxCount('Deleted QR codes brought back by the import'),
    updated: sandboxCount('Existing QR codes updated (same external reference)'),
    tags_created: sandboxCount('New tags'),
    ...importResultFields,
  })
  .meta({ id: 'QrCodeFileImportResults' });
export type QrCodeFileImportResults = z.infer<typeof qrCodeFileImportResultsSchema>;

/** The sync answer of POST /api/qrcodes/bulk and /bulk-import: the task's results. */
export const qrCodeImportAnswerSchema = z.union([qrCodeJsonImportResultsSchema, qrCodeFileImportResultsSchema]);

export const qrCodeImportDryRunSchema = z
  .union([qrCodeJsonImportResultsSchema.extend(dryRunFields), qrCodeFileImportResultsSchema.extend(dryRunFields)])
  .meta({ id: 'QrCodeImportDryRun' });

/** docs/imports.md, for the documentation of the JSON form: rows are checked one by one (qrImportRowSchema), so a bad row is excluded, not a 400. */
export const qrCodeImportRecordSchema = z
  .object(Object.fromEntries(QR_IMPORT_COLUMNS.map((column) => [column, z.union([z.string(), z.number()]).optional()])))
  .meta({
    id: 'QrCodeImportRecord',
    description: 'One QR code address to import; location is required (or address_line_1 with suburb, state or postcode)',
  });
