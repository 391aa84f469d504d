import { SANDBOX_EXTENSION } from '../../http/sandbox-only.ts';
import { ApiError } from '../../http/errors.ts';
import { COLUMN_DATE_ORDERS, type ColumnDateOrder } from '../engine/file-layout.ts';
import type { ImportKind } from '../kind.ts';

/** What a request says of its file's layout: the form fields sheet, header_row, mapping and date_order. */
export interface LayoutRequest {
  /** A sheet's name, or its 1-based position among the workbook's sheets. */
  sheet?: string | number;
  /** 1-based row of the header. */
  headerRow?: number;
  mapping?: Record<string, string | null>;
  dateOrders?: Record<string, ColumnDateOrder>;
}

export const LAYOUT_FIELD_DESCRIPTIONS = {
  sheet:
    "Optional, workbooks: the sheet to import, by name or 1-based position. Default: the first sheet whose header matches the kind's columns.",
  header_row:
    "Optional: the 1-based row that holds the column titles: a workbook's sheet row; in a CSV the Nth record, as a spreadsheet shows it (a quoted cell's line breaks do not start a record, though row_number counts them as lines). Default: the first of the first 20 rows in which at least half of the filled cells name one of the kind's columns.",
  mapping:
    'Optional: JSON object from a header text of the file to the column it fills, or null to ignore that column, e.g. {"Street Address": "address_line_1", "Notes": null}. Headers it does not name are matched by name, synonym and similarity.',
  date_order:
    'Optional: JSON object from a date column to how its dates with slashes are read, day_first or month_first, e.g. {"start_date_time": "day_first"}. Default: inferred from the file\'s own values, else the organization\'s date order setting.',
} as const;

/** The layout form fields as OpenAPI properties (multipart forms). */
export const LAYOUT_FORM_PROPERTIES = Object.fromEntries(
  Object.entries(LAYOUT_FIELD_DESCRIPTIONS).map(([name, description]) => [
    name,
    { type: 'string', description, [SANDBOX_EXTENSION]: true },
  ]),
);

const invalid = (path: string, message: string) => new ApiError('VALIDATION_ERROR', message, [{ path, message }]);

function parseJsonObject(path: string, text: string, example: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(path, `${path} is not valid JSON. Send a JSON object, e.g. ${example}.`);
  }
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(path, `${path} must be a JSON object, e.g. ${example}.`);
  return value as Record<string, unknown>;
}

function parseMapping(text: string, kind: Pick<ImportKind, 'columns'>): Record<string, string | null> {
  const example = `{"Street Address": "address_line_1", "Notes": null}`;
  const raw = parseJsonObject('mapping', text, example);
  const mapping: Record<string, string | null> = {};
  const byColumn = new Map<string, string>();
  for (const [header, column] of Object.entries(raw)) {
    const title = header.trim();
    if (title === '')
      throw invalid('mapping', 'mapping has an empty header text; name the file\'s column, e.g. {"Street Address": "address_line_1"}.');
    if (column !== null && (typeof column !== 'string' || !kind.columns.includes(column))) {
      throw invalid(
        'mapping',
        `mapping maps "${title}" to ${JSON.stringify(column)}, which is not a column of this import. Use one of ${kind.columns.join(', ')}, or null to ignore the column.`,
      );
    }
    if (column !== null) {
      const other = byColumn.get(column);
      if (other !== undefined) throw invalid('mapping', `mapping maps both "${other}" and "${title}" to ${column}; keep one of them.`);
      byColumn.set(column, title);
    }
    mapping[title] = column;
  }
  return mapping;
}

function parseDateOrders(text: string, kind: Pick<ImportKind, 'dateColumns'>): Record<string, ColumnDateOrder> {
  const dateColumns = kind.dateColumns ?? [];
  const example = `{"${dateColumns[0] ?? 'start_date_time'}": "day_first"}`;
  const raw = parseJsonObject('date_order', text, example);
  const orders: Record<string, ColumnDateOrder> = {};
  for (const [column, value] of Object.entries(raw)) {
    if (!dateColumns.includes(column)) {
      const which =
        dateColumns.length > 0
          ? `Its date columns are ${dateColumns.join(', ')}.`
          : 'This import has no date columns; leave date_order out.';
      throw invalid('date_order', `date_order names "${column}", which is not a date column of this import. ${which}`);
    }
    const order = typeof value === 'string' ? value.trim().toLowerCase().replace('-', '_') : value;
    if (!COLUMN_DATE_ORDERS.includes(order as ColumnDateOrder)) {
      throw invalid('date_order', `date_order for ${column} must be day_first or month_first (got ${JSON.stringify(value)}).`);
    }
    orders[column] = order as ColumnDateOrder;
  }
  return orders;
}

/** The layout fields of a multipart form, checked (a 400 that says what to send otherwise). Empty fields count as absent. */
export function parseLayoutRequest(fields: Record<string, string>, kind: Pick<ImportKind, 'columns' | 'dateColumns'>): LayoutRequest {
  const request: LayoutRequest = {};
  const sheet = fields.sheet?.trim();
  if (sheet) request.sheet = /^\d+$/.test(sheet) ? Number(sheet) : sheet;
  if (request.sheet === 0)
    throw invalid('sheet', "sheet 0 does not exist: sheets are counted from 1. Send the sheet's name or its position (1 for the first).");
  const headerRow = fields.header_row?.trim();
  if (headerRow) {
    if (!/^\d+$/.test(headerRow) || Number(headerRow) < 1 || Number(headerRow) > 1_048_576) {
      throw invalid('header_row', `header_row must be the number of the row that holds the column titles, 1 or more (got "${headerRow}").`);
    }
    request.headerRow = Number(headerRow);
  }
  const mapping = fields.mapping?.trim();
  if (mapping) request.mapping = parseMapping(mapping, kind);
  const dateOrder = fields.date_order?.trim();
  if (dateOrder) request.dateOrders = parseDateOrders(dateOrder, kind);
  return request;
}
