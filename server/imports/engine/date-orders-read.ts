import { z } from 'zod';
import { COLUMN_DATE_ORDERS, type DateOrderFinding, fileLayoutOf } from './file-layout.ts';

/** An organization's date order setting (Settings > Date order): iso_only reads no slashed date. */
export type SettingDateOrder = 'day_first' | 'month_first' | 'iso_only';

/** One date column's order as read, and why: the preview's `date_orders`, and the results' when a date with slashes was read. */
export const dateOrderReadSchema = z.object({
  column: z.string(),
  header: z.string(),
  order: z
    .enum(COLUMN_DATE_ORDERS)
    .nullable()
    .describe('How its dates with slashes are read; null: only year-month-day (the setting reads no other)'),
  source: z
    .enum(['request', 'file', 'setting'])
    .describe(
      "request: the date_order field; file: the file proves it (a value only this order can read, none only the other can); setting: the organization's date order",
    ),
  evidence: z.string().nullable().describe('The value that settled it (source file)'),
  conflicting: z.boolean().describe('The values disagree: some read only day first, others only month first'),
});
export type DateOrderRead = z.infer<typeof dateOrderReadSchema>;

/** Each date column's order as the import reads it: as the file settled it, else the organization's setting. */
export function dateOrdersRead(findings: readonly DateOrderFinding[], setting: SettingDateOrder): DateOrderRead[] {
  return findings.map((finding) => ({
    column: finding.column,
    header: finding.header,
    order: finding.order ?? (setting === 'iso_only' ? null : setting),
    source: finding.order === null ? 'setting' : finding.source === 'request' ? 'request' : 'file',
    evidence: finding.evidence,
    conflicting: finding.conflicting,
  }));
}

/**
 * A job's date columns as read: the findings its intake kept, or (a JSON import, which has no
 * header to settle anything from) each date column left to the setting.
 */
export function jobDateOrders(
  options: Record<string, unknown>,
  dateColumns: readonly string[],
  setting: SettingDateOrder,
): DateOrderRead[] {
  const kept = fileLayoutOf(options).dateOrderFindings;
  const findings: DateOrderFinding[] =
    kept ?? dateColumns.map((column) => ({ column, header: column, order: null, source: 'none', evidence: null, conflicting: false }));
  return dateOrdersRead(findings, setting);
}

/** Why a column's dates are read in their order, in words that follow "read day first (DD/MM/YYYY) as 2 December 2026". */
export function dateOrderReason(read: DateOrderRead): string {
  if (read.source === 'request') return 'as the import asked (date_order)';
  if (read.source === 'file') return `because "${read.evidence ?? ''}" in this column can only be read that way`;
  if (read.conflicting) return "the organization's date order (Settings), as this column's values disagree";
  return "the organization's date order (Settings), as no value in this column settles it";
}
