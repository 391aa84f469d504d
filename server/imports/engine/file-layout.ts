import { z } from 'zod';

/** How a date column's slashed dates are read: day first (25/03/2026) or month first (03/25/2026). */
export const COLUMN_DATE_ORDERS = ['day_first', 'month_first'] as const;
export type ColumnDateOrder = (typeof COLUMN_DATE_ORDERS)[number];

/** How the intake settled one date column's order from the file (date-order-inference.ts), kept so every result can say why. */
export const dateOrderFindingSchema = z.object({
  column: z.string(),
  /** The file's header over it. */
  header: z.string(),
  /** null: the file does not settle it (the organization's date order setting decides). */
  order: z.enum(COLUMN_DATE_ORDERS).nullable(),
  /** request: the date_order field; file: a value settled it; none: nothing settles it. */
  source: z.enum(['request', 'file', 'none']),
  /** The value that settled it (source file), e.g. "25/03/2026 09:00". */
  evidence: z.string().nullable(),
  /** True when the file's values disagree (one reads only day first, another only month first). */
  conflicting: z.boolean(),
});
export type DateOrderFinding = z.infer<typeof dateOrderFindingSchema>;

/**
 * Where a file's rows are and how its columns are read, kept in the job's options under
 * FILE_LAYOUT_OPTION (so an interrupted import resumes alike): the sheet and header row the
 * intake settled on, the header -> column mapping every header got, and each date column's order.
 */
export const fileLayoutSchema = z.object({
  /** The workbook's sheet by name; null for CSV or the first sheet. */
  sheet: z.string().nullable().optional(),
  /** How many sheets the workbook has (absent for CSV, and for jobs from before it was kept). */
  sheets: z.number().int().positive().optional(),
  /** 1-based row of the header; null: the first non-blank row. */
  headerRow: z.number().int().positive().nullable().optional(),
  /** Header text -> column, or null to ignore the header. */
  mapping: z.record(z.string(), z.string().nullable()).optional(),
  /** Date column -> the order its slashed dates are read in (the organization's setting for a column not named). */
  dateOrders: z.record(z.string(), z.enum(COLUMN_DATE_ORDERS)).optional(),
  /** How each date column's order was settled, and by which value. */
  dateOrderFindings: z.array(dateOrderFindingSchema).optional(),
});
export type FileLayout = z.infer<typeof fileLayoutSchema>;

export const FILE_LAYOUT_OPTION = 'fileLayout';

/**
 * The sheet to name beside a row number: the workbook's sheet when it has several, so "row 8"
 * says which sheet's row 8 (docs/imports.md); null for CSV, JSON and a workbook of one sheet. A
 * job from before the count was kept names its sheet whenever it has one.
 */
export function sheetToName(layout: FileLayout): string | null {
  if (!layout.sheet) return null;
  return layout.sheets === undefined || layout.sheets > 1 ? layout.sheet : null;
}

/** The file layout of a job's options (empty when it has none). */
export function fileLayoutOf(options: Record<string, unknown>): FileLayout {
  const parsed = fileLayoutSchema.safeParse(options[FILE_LAYOUT_OPTION]);
  return parsed.success ? parsed.data : {};
}

/** A job's options with its file layout set. */
export function withFileLayout(options: Record<string, unknown>, layout: FileLayout): Record<string, unknown> {
  return { ...options, [FILE_LAYOUT_OPTION]: layout };
}
