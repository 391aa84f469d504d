import { openConnection } from '../../db/database.ts';
import type { Geocoder } from '../../geocoding/geocoder.ts';
import { isBlankRow, matchHeader, normaliseHeader, withColumnAliases } from '../engine/columns.ts';
import { type ColumnMatch, needsConfirmation } from '../engine/column-matching.ts';
import { dateOrdersRead } from '../engine/date-orders-read.ts';
import { withFileLayout } from '../engine/file-layout.ts';
import { type LayoutPosition, resolveKindLayout, type SavedMapping } from '../intake/layout.ts';
import { organizationDateOrder } from '../../settings/date-order.ts';
import type { ImportKind } from '../kind.ts';
import type { ImportLimits } from '../limits.ts';
import { dateCellText, rowChecker } from '../engine/row-check.ts';
import type { ImportKindId, ImportPreview, ImportPreviewRow } from '../schemas.ts';
import type { ImportFormat } from '../intake/sniff.ts';
import { openSource } from '../sources/open.ts';
import { type TrialOutcome, trialWrite } from './trial-write.ts';
import { lookalikeKind } from './kind-guess.ts';

export const PREVIEW_ROWS = 20;

/** Thrown from the row handler once enough rows are read: it stops the stream. */
class EnoughRows extends Error {}

/** A date cell as the wall-clock time typed in the sheet, the text the import reads (its UTC fields hold that time). */
function plain(value: unknown): unknown {
  return value instanceof Date ? dateCellText(value) : value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The first rows of an uploaded file as the importer treats them: the same source, header
 * matching and row checks (organization, the kind's schema), then the kind's own writer on the
 * rows that pass, in a transaction that is rolled back (trial-write.ts): addresses located,
 * services, tags and time zones looked up, as the import will. Nothing is kept.
 * Reading stops after PREVIEW_ROWS + 1 data rows, however big the file is.
 */
export async function previewImport(input: {
  file: string;
  format: ImportFormat;
  kind: ImportKind;
  /** The other import kinds, for `looks_like_kind`: a file whose columns are another kind's. */
  otherKinds: readonly { id: ImportKindId; kind: ImportKind }[];
  organizationUuid: string;
  /** The job options the import would get (the kind's writer reads them). */
  options: Record<string, unknown>;
  /** The sheet and header row the request names. */
  position: LayoutPosition;
  /** The kind's saved mappings, one proposed when the file's header fits it and the request sends no mapping. */
  savedMappings?: SavedMapping[];
  dataDir: string;
  geocoder: Geocoder;
  limits: ImportLimits;
}): Promise<ImportPreview> {
  const { kind, format } = input;
  const layout =
    format === 'json'
      ? null
      : await resolveKindLayout({
          file: input.file,
          format,
          kind,
          options: input.options,
          request: input.position,
          limits: input.limits,
          countRows: true,
          ...(input.savedMappings ? { savedMappings: input.savedMappings } : {}),
        });
  const options = layout ? withFileLayout(input.options, layout.fileLayout) : input.options;
  const columns = withColumnAliases(kind, options);
  const json = format === 'json';
  const checker = rowChecker(kind, columns, { format, organizationUuid: input.organizationUuid });
  let headers: string[] = [];
  let missing: string[] = [];
  let mapping: (string | null)[] = [];
  let matches: ColumnMatch[] = [];
  const raw: { index: number; rowNumber: number; row: unknown }[] = [];
  let more = false;

  const source = openSource(input.file, format, input.limits, layout?.fileLayout);
  try {
    await source.read({
      onHeader(cells) {
        headers = cells.map((c) => String(c ?? ''));
        ({ mapping, missing, matches } = matchHeader(columns, headers));
        checker.setMapping(mapping);
      },
      onRows(rows, firstIndex, rowNumbers) {
        for (let i = 0; i < rows.length; i++) {
          const row = rows[i];
          if (row === null || (Array.isArray(row) && isBlankRow(row))) continue;
          if (raw.length === PREVIEW_ROWS) {
            more = true;
            throw new EnoughRows();
          }
          raw.push({ index: firstIndex + i, rowNumber: rowNumbers[i] ?? firstIndex + i + 1, row });
        }
      },
    });
  } catch (error) {
    if (!(error instanceof EnoughRows)) throw error;
  }

  if (json) {
    const keys = new Set<string>();
    for (const { row } of raw) if (isPlainObject(row)) for (const key of Object.keys(row)) keys.add(key);
    headers = [...keys];
    ({ mapping, matches } = matchHeader(columns, headers));
  }

  const checked = raw.map(({ index, rowNumber, row }) => ({ index, rowNumber, row, checked: checker.check(index, row) }));
  const rowNumbers = new Map(raw.map(({ index, rowNumber }) => [index, rowNumber]));
  const valid = checked.flatMap(({ index, checked: c }) => (c && 'row' in c ? [{ index, row: c.row }] : []));
  const db = openConnection(input.dataDir);
  let written: TrialOutcome;
  let notes: Map<number, string[]>;
  let settingOrder: ReturnType<typeof organizationDateOrder> = 'iso_only';
  try {
    written = await trialWrite({
      db,
      kind,
      geocoder: input.geocoder,
      organizationUuid: input.organizationUuid,
      options,
      rows: valid,
      rowNumber: (index) => rowNumbers.get(index) ?? index + 1,
    });
    const context = { db, organizationUuid: input.organizationUuid, options };
    settingOrder = kind.dateColumns?.length ? organizationDateOrder(db, input.organizationUuid) : 'iso_only';
    notes = new Map(valid.map(({ index, row }) => [index, kind.previewNotes?.(row, context) ?? []]));
  } finally {
    await db.close();
  }
  const rows: ImportPreviewRow[] = checked.map(({ index, rowNumber, row, checked: c }) => {
    const values: Record<string, unknown> = {};
    if (json) {
      if (isPlainObject(row)) for (const [key, value] of Object.entries(row)) values[key] = value;
    } else if (Array.isArray(row)) {
      headers.forEach((header, i) => {
        values[header] = plain(row[i]) ?? null;
      });
    }
    const problem = c && 'error' in c ? c.error : (written.problems.get(index) ?? null);
    return {
      index,
      row_number: rowNumber,
      values,
      problems: problem === null ? [] : [problem],
      warnings: problem === null ? (written.warnings.get(index) ?? []) : [],
      notes: notes.get(index) ?? [],
    };
  });

  // The layout's matches say how each header was matched (the options replay them as a mapping).
  if (layout) matches = layout.matches;
  const matched = headers.flatMap((header, i) => {
    const column = mapping[i];
    return column ? [{ header, column }] : [];
  });
  const unknown = headers.filter((header, i) => !mapping[i] && normaliseHeader(header) !== '');
  return {
    format,
    encoding: source.encoding?.() ?? null,
    headers,
    columns: {
      matched,
      // A JSON array has no header: the engine checks required fields row by row instead.
      missing_required: json ? [] : missing,
      unknown,
      matches: matches
        .filter((m) => m.header.trim() !== '')
        .map((m) => ({
          header: m.header,
          column: m.column,
          proposed: m.proposed,
          confidence: m.confidence,
          source: m.source,
          needs_confirmation: needsConfirmation(m),
        })),
      questions: matches
        .filter((m) => !m.applied && m.proposed !== null && m.source !== 'mapping' && m.source !== 'saved')
        .map((m) => ({ header: m.header, proposed: m.proposed ?? '', confidence: m.confidence })),
    },
    sheets: layout?.sheets?.map((s) => ({ name: s.name, rows: s.rows ?? 0 })) ?? null,
    sheet: layout?.sheet ?? null,
    header_row: layout?.headerRow ?? null,
    header_row_source: layout?.headerRowSource ?? null,
    saved_mapping: layout?.savedMapping ?? null,
    date_orders: dateOrdersRead(layout?.dateOrders ?? [], settingOrder),
    expected_columns: [...kind.columns],
    required_columns: [...kind.requiredColumns],
    looks_like_kind: lookalikeKind(headers, columns, input.otherKinds),
    rows,
    total_rows_read: raw.length + (more ? 1 : 0),
    more_rows: more,
  };
}
