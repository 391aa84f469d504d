import { isBlankCell, isBlankRow, recordFromCells, recordFromObject } from './columns.ts';
import type { ImportKind, RawRecord } from '../kind.ts';
import { rowErrorMessage } from './row-errors.ts';
import { normaliseRowText } from './row-text.ts';
import type { ImportFormat } from '../intake/sniff.ts';

/**
 * A data row after validation: the kind's valid row (with its raw cells, in case the writer
 * excludes it), or why it is excluded with what the results and the report show.
 */
export type CheckedRow =
  | { index: number; row: unknown; raw: unknown }
  | { index: number; error: string; echo: Record<string, unknown>; cells: unknown };

export interface RowChecker {
  /** Call once with the file's header mapping (files only). */
  setMapping(mapping: (string | null)[]): void;
  /** Null for a blank row (it is skipped but keeps its index). */
  check(index: number, row: unknown): CheckedRow | null;
  /** The `row` echo and report cells of a valid row's raw cells, for a row the writer excludes. */
  excluded(raw: unknown): { echo: Record<string, unknown>; cells: unknown };
}

/**
 * A spreadsheet date cell as the text a user typed: exceljs keeps the wall-clock time in the
 * Date's UTC fields, so it is written without a zone (2026-03-02 09:00:00), and a fixed report
 * imports to the same local time rather than a UTC instant.
 */
export function dateCellText(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

function plainCells(cells: readonly unknown[]): unknown[] {
  return cells.map((c) => (c instanceof Date ? dateCellText(c) : c));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The first non-empty cell of a CSV row beyond the header's columns, or undefined. Such a cell is
 * usually the rest of a value cut at a comma that was not quoted (`12 Smith St, Carlton VIC 3053`).
 */
function cellPastHeader(cells: readonly unknown[], columns: number): string | undefined {
  for (let i = columns; i < cells.length; i++) if (!isBlankCell(cells[i])) return String(cells[i]).trim();
  return undefined;
}

/** Turns raw rows (cell arrays or JSON elements) into checked rows: text in NFC, organization check, the kind's prepare and zod schema. */
export function rowChecker(
  kind: ImportKind,
  columns: Pick<ImportKind, 'columns' | 'aliases'>,
  input: { format: ImportFormat; organizationUuid: string },
): RowChecker {
  const json = input.format === 'json';
  const csv = input.format === 'csv';
  const keyMap = new Map<string, string | null>();
  let mapping: (string | null)[] = [];
  const excluded = (index: number, error: string, record: RawRecord, cells: unknown): CheckedRow => ({
    index,
    error,
    echo: kind.echo(record),
    cells,
  });
  const reportCells = (raw: unknown): unknown => (json || !Array.isArray(raw) ? raw : plainCells(raw));
  const toRecord = (cells: unknown): RawRecord =>
    json ? (isPlainObject(cells) ? recordFromObject(columns, keyMap, cells) : {}) : recordFromCells(mapping, cells as unknown[]);
  return {
    excluded: (raw) => ({ echo: kind.echo(toRecord(raw)), cells: reportCells(raw) }),
    setMapping(next) {
      mapping = next;
    },
    check(index, row) {
      if (row === null || (Array.isArray(row) && isBlankRow(row))) return null;
      let record: RawRecord;
      if (json) {
        if (!isPlainObject(row)) return excluded(index, 'Each element of the array must be an object.', {}, row);
        record = recordFromObject(columns, keyMap, row);
      } else {
        const cells = row as unknown[];
        record = recordFromCells(mapping, cells);
        const past = csv && cells.length > mapping.length ? cellPastHeader(cells, mapping.length) : undefined;
        if (past !== undefined) {
          return excluded(
            index,
            `The row has ${cells.length} cells but the header has ${mapping.length} columns: "${past.slice(0, 60)}" is under no column. Is there a comma in a value (an address?) without quotes around it? Put that value in double quotes, or name the extra column in the header.`,
            record,
            reportCells(row),
          );
        }
      }
      const broken = normaliseRowText(record);
      if (broken !== undefined) return excluded(index, broken, record, reportCells(row));
      const org = record.organization_uuid;
      const named = org === undefined || org === null ? '' : String(org).trim();
      if (named !== '' && named !== input.organizationUuid) {
        return excluded(
          index,
          `organization_uuid: ${named} is not the organization of this import (${input.organizationUuid}); every row must name the same one.`,
          record,
          reportCells(row),
        );
      }
      const quick = kind.quickParse?.(record);
      if (quick !== undefined) return { index, row: quick, raw: row };
      const prepared = kind.prepare ? kind.prepare(record) : record;
      const parsed = kind.rowSchema.safeParse(prepared);
      if (!parsed.success) return excluded(index, rowErrorMessage(parsed.error), record, reportCells(row));
      return { index, row: parsed.data, raw: row };
    },
  };
}
