import { z } from 'zod';
import { MATCH_THRESHOLD } from './engine/column-matching.ts';
import { rowNumberSchema } from './engine/row-number-schema.ts';
import { dateOrderReadSchema } from './engine/date-orders-read.ts';
import { IMPORT_FORMATS } from './intake/sniff.ts';
import { importKindIds } from './kinds.ts';
import { textEncodingSchema } from './text-encodings.ts';

/** The import kinds by their stable ids (the registry, server/imports/kinds.ts): stored in import_jobs.kind, the preview's `kind` field. */
export { importKindIds, type ImportKindId } from './kinds.ts';

export const importPreviewRowSchema = z.object({
  index: z.number().int().describe('0-based data-row index, as in excluded rows'),
  row_number: rowNumberSchema,
  values: z.record(z.string(), z.unknown()).describe("The cells keyed by the file's own header (JSON: the element's keys)"),
  problems: z
    .array(z.string())
    .describe(
      "Why the import would exclude this row now, exactly the import's error (empty when it would be imported): the row checks and the import's own writer (address located, service, tag, time zone), nothing kept",
    ),
  warnings: z
    .array(z.string())
    .describe(
      "What the import would read other than as written, for a row it would import (not an exclusion): an address located by its place because its postcode is not that place's, a start time that a daylight-saving change makes happen twice or not at all. The task results list the same warnings (`warnings`)",
    ),
  notes: z
    .array(z.string())
    .describe('How cells were read, e.g. how a date was understood under the date order setting (empty when there is nothing to say)'),
});

/** What POST /api/imports/preview answers: the file as the importer will read it, from its first rows. */
export const importPreviewSchema = z
  .object({
    format: z
      .enum(IMPORT_FORMATS)
      .describe("The file's format, from its content. xls and ods are this sandbox's: the real service takes CSV, XLSX and JSON"),
    encoding: textEncodingSchema
      .nullable()
      .describe(
        'CSV: the text encoding the file is read in, as far as the preview read it (utf-8 while the text is ASCII); null for XLSX and JSON',
      ),
    headers: z.array(z.string()).describe('The header row (JSON: the keys of the first elements)'),
    columns: z.object({
      matched: z.array(z.object({ header: z.string(), column: z.string() })),
      missing_required: z
        .array(z.string())
        .describe('Required columns no header fills (nor their stand-ins): the import would be refused (400), by the same rule'),
      unknown: z.array(z.string()).describe('Headers the import ignores'),
      matches: z
        .array(
          z.object({
            header: z.string(),
            column: z.string().nullable().describe('The column the import reads this header into; null: ignored'),
            proposed: z.string().nullable().describe('The column proposed for it (applied when confident enough); null: none is near'),
            confidence: z
              .number()
              .min(0)
              .max(1)
              .describe(`1 for a column name, alias or the request's mapping; below ${MATCH_THRESHOLD} a match is only proposed`),
            source: z
              .enum(['mapping', 'saved', 'name', 'synonym', 'similar', 'none'])
              .describe(
                "How it was matched: mapping (the request's mapping field: the user's choice), saved (a saved column mapping the file fits), name (the column's name or alias, exactly), synonym (a usual name for it), similar (a similar spelling: a guess), or none",
              ),
            needs_confirmation: z
              .boolean()
              .describe(
                `Sandbox addition. True for a guess (source similar), whether applied (confidence ${MATCH_THRESHOLD} or more) or only proposed: a client should have the user confirm or change it, by sending it in the mapping field, before importing. The import applies a guess of ${MATCH_THRESHOLD} or more without the mapping field; the Imports screen asks first`,
              ),
          }),
        )
        .optional()
        .describe('Every filled header cell and how it is matched, in file order'),
      questions: z
        .array(z.object({ header: z.string(), proposed: z.string(), confidence: z.number() }))
        .optional()
        .describe('Proposed matches not confident enough to apply: the import ignores these headers until the mapping field confirms them'),
    }),
    sheets: z
      .array(z.object({ name: z.string(), rows: z.number().int().describe('Rows with a value, the header included') }))
      .nullable()
      .optional()
      .describe("A workbook's sheets in order; null for CSV and JSON"),
    sheet: z
      .string()
      .nullable()
      .optional()
      .describe('The sheet read (the field sheet, else the first whose header matches the columns); null for CSV and JSON'),
    header_row: z.number().int().nullable().optional().describe('The 1-based row read as the header; null for JSON'),
    header_row_source: z
      .enum(['request', 'found', 'first'])
      .nullable()
      .optional()
      .describe(
        'request: the field header_row; found: the first of the top 20 rows naming the columns; first: the first non-blank row (no row named them)',
      ),
    saved_mapping: z
      .object({ uuid: z.string(), name: z.string(), slug: z.string() })
      .nullable()
      .optional()
      .describe(
        "The saved column mapping (import handler) of this kind applied because the file's header has every title it names; only when the request sends no mapping",
      ),
    date_orders: z
      .array(dateOrderReadSchema)
      .optional()
      .describe(
        "Each date column: the order its dates with slashes are read in, and why: the request's date_order, the file's first 1,000 rows proving an order, or the organization's setting",
      ),
    expected_columns: z.array(z.string()).describe('Every column the kind reads, in template order'),
    required_columns: z
      .array(z.string())
      .describe(
        'Columns a file must have, by the rule the import refuses a file with (missing_required lists the ones this file lacks); some have stand-ins: location is not needed with address_line_1 and suburb (or postcode), service not with service_code',
      ),
    looks_like_kind: z
      .enum(importKindIds)
      .nullable()
      .describe(
        "The import kind the file's columns belong to when it is not the kind asked for (an appointments file previewed as qrcodes, or the reverse); null when the columns fit the kind asked for. Importing such a file as the wrong kind could overwrite existing records: switch kind, or make sure first",
      ),
    rows: z.array(importPreviewRowSchema).describe('The first data rows (at most 20; blank rows skipped)'),
    total_rows_read: z.number().int().describe('Data rows read for the preview (reading stops after the first rows)'),
    more_rows: z.boolean().describe('True when the file has more data rows than the preview shows'),
  })
  .meta({ id: 'ImportPreview' });
export type ImportPreview = z.infer<typeof importPreviewSchema>;
export type ImportPreviewRow = z.infer<typeof importPreviewRowSchema>;
