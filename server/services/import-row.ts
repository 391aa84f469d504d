import { z } from 'zod';
import { cellText } from '../imports/engine/cell-text.ts';
import type { RawRecord } from '../imports/kind.ts';

/** The columns of a services import, in template order. */
export const SERVICE_IMPORT_COLUMNS = ['name', 'code', 'categories'] as const;

/** The categories cell: names separated by semicolons ("Maintenance; Water"). */
export const CATEGORY_SEPARATOR = ';';

/** The category names of a categories cell: split at the separator, trimmed, blanks dropped. */
function categoryNames(cell: string): string[] {
  return cell
    .split(CATEGORY_SEPARATOR)
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** What is wrong with a row's category names, in the row's words (none: they can be written). */
function categoryProblems(names: readonly string[]): string[] {
  const problems: string[] = [];
  if (names.length > 50) problems.push('at most 50 categories');
  if (names.some((name) => name.length > 200)) problems.push('each category at most 200 characters');
  if (new Set(names.map((name) => name.toLowerCase())).size !== names.length) problems.push('category names must differ from each other');
  return problems;
}

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/** One row of a services import (after cellsAsText): the same limits as POST /api/services. */
export const serviceImportRowSchema = z
  .object({
    name: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
      .min(1, 'is required')
      .max(200, 'must be at most 200 characters'),
    code: text(100).optional(),
    categories: z
      .string()
      .optional()
      .transform((cell, ctx) => {
        if (cell === undefined) return undefined;
        const names = categoryNames(cell);
        for (const message of categoryProblems(names)) ctx.addIssue({ code: 'custom', message });
        return names;
      }),
  })
  .strip();
export type ServiceImportRow = z.output<typeof serviceImportRowSchema>;

/** A cell as cellsAsText reads it, or false for a value only the schema may judge (an object). */
function quickText(value: unknown): string | undefined | false {
  return typeof value === 'object' && value !== null && !(value instanceof Date) ? false : cellText(value);
}

/**
 * The zod-free path of a well-formed row (ImportKind.quickParse): exactly what the schema gives
 * for cellsAsText(record) when it accepts it; undefined for any row it might refuse, which the
 * schema then judges and words.
 */
export function quickServiceRow(record: RawRecord): ServiceImportRow | undefined {
  const name = quickText(record.name);
  const code = quickText(record.code);
  const cell = quickText(record.categories);
  if (name === false || name === undefined || name.length > 200 || code === false || cell === false) return undefined;
  if (code !== undefined && code.length > 100) return undefined;
  const row: ServiceImportRow = { name, categories: undefined };
  if (code !== undefined) row.code = code;
  if (cell === undefined) return row;
  const names = categoryNames(cell);
  if (categoryProblems(names).length > 0) return undefined;
  row.categories = names;
  return row;
}
