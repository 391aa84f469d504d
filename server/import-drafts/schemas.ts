import { z } from 'zod';
import { MAX_SEARCH_CHARS, withoutControlCharacters } from '../text/search-term.ts';
import { importKindIds } from '../imports/schemas.ts';
import { MAX_CELL_CHARS, textProblem } from './bounds.ts';

/** Rows of a page of GET rows at most. */
export const MAX_ROWS_PAGE = 1000;

/** Text a draft stores: valid Unicode without NUL (docs/hardening.md). */
const validText = <T extends z.ZodString>(schema: T) =>
  schema.superRefine((text, ctx) => {
    const problem = textProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: `the text ${problem}` });
  });
const cellText = validText(z.string().max(MAX_CELL_CHARS, `a cell holds at most ${MAX_CELL_CHARS.toLocaleString('en-US')} characters`));
const column = z.string().min(1).describe("One of the kind's columns (the draft's `columns`)");

export const draftParamsSchema = z.object({ draft_uuid: z.string().describe('Import draft uuid') });
export const draftRowParamsSchema = draftParamsSchema.extend({
  row_id: z.coerce.number().int().positive().describe("The row's id in the draft (rows[].row_id)"),
});

export const createDraftBodySchema = z
  .union([
    z
      .object({
        background_task_uuid: z.string().min(1).describe('The finished import (either kind) whose excluded rows to fix'),
      })
      .strict(),
    z
      .object({
        kind: z.enum(importKindIds),
        organization_uuid: z.string().min(1).optional().describe("Default: the API key's organization"),
        rows: z
          .array(
            z.object({
              row_number: z.number().int().positive().nullable().optional().describe('Where the row was in its file'),
              values: z.record(z.string(), z.union([cellText, z.number(), z.boolean(), z.null()])),
            }),
          )
          .min(1, 'give at least one row')
          .max(10_000, 'a draft from rows in the body takes at most 10,000 rows; import the file and fix its excluded rows instead')
          .describe("Rows to fix, e.g. a preview's rows with problems; values keyed by the kind's columns"),
      })
      .strict(),
  ])
  .describe('Either a finished import task, or rows of a kind (from a preview)');
export type CreateDraftBody = z.infer<typeof createDraftBodySchema>;

export const draftRowSchema = z
  .object({
    row_id: z.number().int(),
    row_number: z.number().int().nullable().describe('The row number in the file it came from'),
    cells: z.record(z.string(), z.string()).describe("The row's text by column"),
    problem: z.string().nullable().describe('Why the import would exclude the row now; null: it would be imported'),
    problem_column: z.string().nullable().describe('The column the problem is about, when it names one'),
    state: z.enum(['open', 'imported']).describe('imported: the import of the fixed rows wrote it'),
    checked: z.boolean().describe('false: changed by a replace over more rows than are checked at once; the import checks it'),
  })
  .meta({ id: 'ImportDraftRow' });
export type DraftRow = z.infer<typeof draftRowSchema>;

export const draftSchema = z
  .object({
    uuid: z.string(),
    organization_uuid: z.string(),
    kind: z.enum(importKindIds),
    source_task_uuid: z.string().nullable().describe('The import whose excluded rows these are'),
    columns: z.array(z.string()).describe("The kind's columns, in template order"),
    status: z.enum(['open', 'importing']),
    rows: z.number().int().describe('Rows in the draft (deleted ones not counted)'),
    rows_with_problems: z.number().int(),
    rows_imported: z.number().int(),
    can_undo: z.boolean(),
    last_action: z.string().nullable().describe('What undo would take back'),
    import_task_uuid: z.string().nullable().describe('The import of the fixed rows, running or last run'),
    last_import: z
      .object({ task_uuid: z.string(), status: z.string(), imported: z.number().int(), excluded: z.number().int(), message: z.string() })
      .nullable(),
    created_on: z.string(),
    updated_on: z.string(),
  })
  .meta({ id: 'ImportDraft' });
export type Draft = z.infer<typeof draftSchema>;

export const draftListQuerySchema = z.object({
  background_task_uuid: z.string().optional().describe('Only the drafts of this import task'),
});
export const draftListSchema = z.object({ data: z.array(draftSchema) });

const flag = z
  .enum(['true', 'false'])
  .optional()
  .transform((value) => value === 'true');

export const draftRowsQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_ROWS_PAGE).default(100),
  problems_only: flag.describe('true: only rows the import would exclude'),
  search: withoutControlCharacters(z.string().max(MAX_SEARCH_CHARS))
    .optional()
    .describe('Only rows with this text in a cell (case ignored)'),
});
export type DraftRowsQuery = z.infer<typeof draftRowsQuerySchema>;

export const draftRowsPageSchema = z
  .object({ total: z.number().int(), offset: z.number().int(), rows: z.array(draftRowSchema) })
  .meta({ id: 'ImportDraftRowsPage' });

export const editCellBodySchema = z.object({ column, value: cellText });
export const editCellAnswerSchema = z.object({
  row: draftRowSchema,
  check_ms: z.number().describe("How long the row's check took, in milliseconds"),
});

export const replaceBodySchema = z.object({
  column,
  find: validText(z.string().min(1, 'give the text to find').max(1000)),
  replace: validText(z.string().max(1000)),
  whole_cell: z.boolean().default(false).describe('true: only cells whose whole text is `find`'),
  match_case: z.boolean().default(false),
});
export type ReplaceBody = z.infer<typeof replaceBodySchema>;

export const fillDownBodySchema = z.object({
  column,
  from_row_id: z.number().int().positive().describe('The row whose cell is copied'),
  to_row_id: z.number().int().positive().describe('The last row it is copied to (rows in between too)'),
});
export const deleteRowsBodySchema = z.object({ row_ids: z.array(z.number().int().positive()).min(1).max(MAX_ROWS_PAGE) });

export const changeAnswerSchema = z
  .object({
    changed: z.number().int().describe('Rows changed'),
    rechecked: z.number().int().describe('Changed rows checked again at once (the rest are checked by the import)'),
    draft: draftSchema,
  })
  .meta({ id: 'ImportDraftChange' });

export const downloadQuerySchema = z.object({ format: z.enum(['csv', 'xlsx']).default('csv') });
