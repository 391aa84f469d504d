import { type ColumnMatch, matchColumns, normaliseHeader } from '../engine/column-matching.ts';
import { type HeaderSpec, isBlankRow, withColumnAliases } from '../engine/columns.ts';
import { inferDateOrders, type DateOrderFinding } from '../engine/date-order-inference.ts';
import { type FileLayout, fileLayoutOf } from '../engine/file-layout.ts';
import type { ImportKind } from '../kind.ts';
import { ImportInputError } from '../errors.ts';
import type { ImportLimits } from '../limits.ts';
import { csvFirstRows } from '../sources/csv.ts';
import { type Cells, HEAD_ROWS, scanWorkbook } from '../sources/workbook-layout.ts';
import type { ImportFormat } from './sniff.ts';

/** Where the table is, as a request gives it (form fields sheet and header_row). */
export interface LayoutPosition {
  sheet?: string | number;
  headerRow?: number;
}

/** Data rows below the header read to infer each date column's order (and to know a data row follows). */
export const SAMPLE_ROWS = 1000;

/** A saved column mapping (an import handler) the preview may propose for a file whose header has every title it names. */
export interface SavedMapping {
  uuid: string;
  name: string;
  slug: string;
  mapping: Record<string, string>;
}

/** The saved mapping naming the most of the header's titles, all of its own titles there; undefined when none fits. */
export function fittingSavedMapping(saved: readonly SavedMapping[], header: readonly string[]): SavedMapping | undefined {
  const titles = new Set(header.map((h) => normaliseHeader(h)).filter((h) => h !== ''));
  let best: SavedMapping | undefined;
  for (const candidate of saved) {
    const named = Object.keys(candidate.mapping).map(normaliseHeader);
    if (named.length === 0 || !named.every((title) => titles.has(title))) continue;
    if (!best || named.length > Object.keys(best.mapping).length) best = candidate;
  }
  return best;
}

/** Where a file's table is and how its header reads, settled before any task starts (and shown by the preview). */
export interface ResolvedLayout {
  /** A workbook's sheets in order with their rows (null when not counted); null for CSV. */
  sheets: { name: string; rows: number | null }[] | null;
  /** The sheet read; null for CSV. */
  sheet: string | null;
  /** The 1-based header row. */
  headerRow: number;
  /** How the header row was settled: given by the request, found by its column names, or the first non-blank row. */
  headerRowSource: 'request' | 'found' | 'first';
  header: string[];
  /** Whether a data row follows the header (null: not within the rows read). */
  hasData: boolean | null;
  matches: ColumnMatch[];
  /** The saved mapping applied because the file's header fits it (only when the request sent no mapping). */
  savedMapping: { uuid: string; name: string; slug: string } | null;
  dateOrders: DateOrderFinding[];
  /** What the job's options keep (FILE_LAYOUT_OPTION): the import reads the file exactly so. */
  fileLayout: FileLayout;
}

const textOf = (cell: unknown) => (cell === null || cell === undefined ? '' : cell instanceof Date ? cell.toISOString() : String(cell));

/**
 * The first of the first HEAD_ROWS rows in which at least half of the filled cells, and at least
 * two, name one of the kind's columns (by name, synonym or confident similarity); null if none does.
 */
export function findHeaderRow(spec: HeaderSpec, rows: readonly Cells[]): number | null {
  for (let i = 0; i < Math.min(HEAD_ROWS, rows.length); i++) {
    const filled = (rows[i] ?? []).filter((cell) => typeof cell === 'string' && cell.trim() !== '') as string[];
    if (filled.length < 2) continue;
    const named = matchColumns({ ...spec, explicit: {} }, filled).filter((m) => m.applied).length;
    if (named >= 2 && named * 2 >= filled.length) return i + 1;
  }
  return null;
}

function firstFilledRow(rows: readonly Cells[]): number | null {
  const at = rows.findIndex((row) => !isBlankRow(row));
  return at < 0 ? null : at + 1;
}

/**
 * Reads the top of an upload (CSV: its first 64 KB; a workbook: streamed, every sheet's rows
 * counted when `countRows`) and settles the sheet, the header row, each header's column and each
 * date column's order, as the request asks or as found. Problems are ImportInputErrors naming the field.
 */
export async function resolveLayout(input: {
  file: string;
  format: Exclude<ImportFormat, 'json'>;
  spec: HeaderSpec;
  dateColumns: readonly string[];
  request: LayoutPosition & { dateOrders?: FileLayout['dateOrders'] };
  limits: ImportLimits;
  countRows: boolean;
  /** Saved mappings of the kind, proposed when the request sends no mapping. */
  savedMappings?: readonly SavedMapping[];
}): Promise<ResolvedLayout> {
  const { request } = input;
  const saved = input.spec.explicit ? [] : (input.savedMappings ?? []);
  // The titles of saved mappings name the kind's columns too, when the header row is looked for.
  const savedTitles = Object.fromEntries(saved.flatMap((s) => Object.entries(s.mapping)));
  const spec: HeaderSpec = saved.length > 0 ? { ...input.spec, aliases: { ...savedTitles, ...input.spec.aliases } } : input.spec;
  const keepRows = Math.max(HEAD_ROWS, request.headerRow ?? 0) + SAMPLE_ROWS;
  let rows: Cells[];
  let complete: boolean;
  let sheets: ResolvedLayout['sheets'] = null;
  let sheet: string | null = null;
  let filledSheets: string[] = [];
  if (input.format === 'csv') {
    if (request.sheet !== undefined) {
      throw new ImportInputError('A CSV file has no sheets: leave sheet out (it applies to Excel workbooks).', 'sheet');
    }
    const read = csvFirstRows(input.file, keepRows);
    rows = read.rows;
    complete = read.whole;
  } else {
    const scan = await scanWorkbook(
      input.file,
      input.limits,
      {
        ...(request.sheet === undefined ? {} : { sheet: request.sheet }),
        countRows: input.countRows,
        keepRows,
        matches: (head) => findHeaderRow(spec, head) !== null,
      },
      input.format,
    );
    rows = scan.chosen.rows;
    complete = rows.length < keepRows;
    sheet = scan.chosen.name;
    filledSheets = scan.filled;
    sheets = scan.sheets.map((s) => ({ name: s.name, rows: s.rows }));
  }

  // Before any header is matched: matching 50,000 columns takes the reader tens of seconds.
  const wide = rows.findIndex((row) => row.length > input.limits.maxColumns);
  if (wide >= 0) {
    throw new ImportInputError(
      `Row ${wide + 1} of the ${sheet === null ? 'file' : `sheet "${sheet}"`} has more than ${input.limits.maxColumns.toLocaleString('en-US')} columns, the limit (serve --max-columns). Remove the columns that are not needed.`,
    );
  }
  let headerRow: number;
  let headerRowSource: ResolvedLayout['headerRowSource'];
  if (request.headerRow !== undefined) {
    if (request.headerRow > rows.length) {
      const where = sheet === null ? 'The file' : `The sheet "${sheet}"`;
      const size = complete
        ? `has ${rows.length} row${rows.length === 1 ? '' : 's'}`
        : `has no header within its first ${rows.length} rows read`;
      throw new ImportInputError(
        `${where} ${size}: header_row ${request.headerRow} is beyond that. Give the row that holds the column titles.`,
        'header_row',
      );
    }
    headerRow = request.headerRow;
    headerRowSource = 'request';
  } else {
    const found = findHeaderRow(spec, rows);
    const first = found ?? firstFilledRow(rows);
    if (first === null) {
      if (sheet === null) throw new ImportInputError('The file is empty: it has no header row.');
      const other = filledSheets.find((name) => name !== sheet);
      throw new ImportInputError(
        other === undefined
          ? `The sheet "${sheet}" is empty: it has no header row.`
          : `The sheet "${sheet}" is empty: it has no header row. The sheet "${other}" has data: choose it (send sheet "${other}").`,
        other === undefined ? undefined : 'sheet',
      );
    }
    headerRow = first;
    headerRowSource = found === null ? 'first' : 'found';
  }
  const header = (rows[headerRow - 1] ?? []).map(textOf);
  const data = rows.slice(headerRow).filter((row) => !isBlankRow(row));
  const fitting = fittingSavedMapping(saved, header);
  const matches = matchColumns(fitting ? { ...input.spec, explicit: fitting.mapping, explicitSource: 'saved' } : input.spec, header);
  const columnAt = matches.map((m) => (m.applied ? m.column : null));
  const dateOrders = inferDateOrders(input.dateColumns, header, columnAt, data, request.dateOrders ?? {});
  const mapping: Record<string, string | null> = {};
  for (const match of matches)
    if (match.header.trim() !== '' && !Object.hasOwn(mapping, match.header.trim())) mapping[match.header.trim()] = match.column;
  const decided: Record<string, 'day_first' | 'month_first'> = {};
  for (const finding of dateOrders) if (finding.order !== null) decided[finding.column] = finding.order;
  return {
    sheets,
    sheet,
    headerRow,
    headerRowSource,
    header,
    hasData: data.length > 0 ? true : complete ? false : null,
    matches,
    savedMapping: fitting ? { uuid: fitting.uuid, name: fitting.name, slug: fitting.slug } : null,
    dateOrders,
    fileLayout: {
      sheet,
      ...(sheets === null ? {} : { sheets: sheets.length }),
      headerRow,
      mapping,
      dateOrders: decided,
      dateOrderFindings: dateOrders,
    },
  };
}

/** resolveLayout for a kind, with the job's options (a saved mapping's aliases, the request's mapping and date orders in FILE_LAYOUT_OPTION). */
export function resolveKindLayout(input: {
  file: string;
  format: Exclude<ImportFormat, 'json'>;
  kind: ImportKind;
  options: Record<string, unknown>;
  request: LayoutPosition;
  limits: ImportLimits;
  countRows: boolean;
  savedMappings?: readonly SavedMapping[];
}): Promise<ResolvedLayout> {
  const dateOrders = fileLayoutOf(input.options).dateOrders;
  return resolveLayout({
    file: input.file,
    format: input.format,
    spec: withColumnAliases(input.kind, input.options),
    dateColumns: input.kind.dateColumns ?? [],
    request: { ...input.request, ...(dateOrders ? { dateOrders } : {}) },
    limits: input.limits,
    countRows: input.countRows,
    ...(input.savedMappings ? { savedMappings: input.savedMappings } : {}),
  });
}
