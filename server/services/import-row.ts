import { z } from 'zod';

/** The columns of a services import, in template order. */
export const SERVICE_IMPORT_COLUMNS = ['name', 'code', 'categories'] as const;

/** The categories cell: names separated by semicolons ("Maintenance; Water"). */
export const CATEGORY_SEPARATOR = ';';

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
        const names = cell
          .split(CATEGORY_SEPARATOR)
          .map((name) => name.trim())
          .filter((name) => name !== '');
        if (names.length > 50) ctx.addIssue({ code: 'custom', message: 'at most 50 categories' });
        if (names.some((name) => name.length > 200)) ctx.addIssue({ code: 'custom', message: 'each category at most 200 characters' });
        if (new Set(names.map((name) => name.toLowerCase())).size !== names.length)
          ctx.addIssue({ code: 'custom', message: 'category names must differ from each other' });
        return names;
      }),
  })
  .strip();
export type ServiceImportRow = z.output<typeof serviceImportRowSchema>;
