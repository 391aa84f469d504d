import { z } from 'zod';

/** The import kinds by their stable ids (server/imports/kinds.ts loads each): stored in import_jobs.kind, the preview's `kind` field. */
export const importKindIds = ['qrcodes', 'appointments'] as const;
export type ImportKindId = (typeof importKindIds)[number];

/** The encodings an uploaded CSV/TSV/TXT file is read in: `encoding` in file import results, sync and dry-run answers, and the preview. */
export const TEXT_ENCODINGS = ['utf-8', 'windows-1252', 'utf-16le', 'utf-16be'] as const;
export type TextEncodingName = (typeof TEXT_ENCODINGS)[number];
export const textEncodingSchema = z
  .enum(TEXT_ENCODINGS)
  .describe('The text encoding the uploaded CSV/TSV/TXT file was read in (ASCII-only text is utf-8); absent for XLSX and JSON');

export const importPreviewRowSchema = z.object({
  index: z.number().int().describe('0-based data-row index, as in excluded rows'),
  row_number: z.number().int().describe('The row in the file: index + 2 with a header row, index + 1 for JSON'),
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
    format: z.enum(['csv', 'xlsx', 'json']),
    encoding: textEncodingSchema
      .nullable()
      .describe(
        'CSV: the text encoding the file is read in, as far as the preview read it (utf-8 while the text is ASCII); null for XLSX and JSON',
      ),
    headers: z.array(z.string()).describe('The header row (JSON: the keys of the first elements)'),
    columns: z.object({
      matched: z.array(z.object({ header: z.string(), column: z.string() })),
      missing_required: z.array(z.string()).describe('Required columns no header fills: the import would be refused (400)'),
      unknown: z.array(z.string()).describe('Headers the import ignores'),
    }),
    expected_columns: z.array(z.string()).describe('Every column the kind reads, in template order'),
    required_columns: z.array(z.string()),
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
