import { z } from 'zod';
import { sandboxOnly } from '../../http/sandbox-only.ts';
import { dateOrderReadSchema } from './date-orders-read.ts';
import { rowWarningSchema } from './row-warnings.ts';

const count = (description: string) => z.number().int().min(0).describe(description);
export { count as resultCount };

/** A count this sandbox always gives but the service's spec does not name: optional, so a client built on it also works with the real service. */
export const sandboxCount = (description: string) =>
  sandboxOnly(count(`${description} (this sandbox always sends it; the real service's results may not)`)).optional();

/**
 * Fields the results of every import may carry besides its kind's own counts. An engine-wide
 * field (one every kind's results get) is added here once, and every task kind's results
 * schema has it.
 */
export const importResultFields = {
  sheet: sandboxOnly(
    z
      .string()
      .describe(
        "The workbook's sheet the rows were read from, when the workbook has several: every row_number is a row of this sheet; absent for CSV, JSON and a workbook of one sheet",
      ),
  ).optional(),
  encoding: sandboxOnly(z.string().describe('The text encoding an uploaded CSV or text file was read with')).optional(),
  warned: sandboxOnly(
    count(
      'Rows imported with a warning (not excluded): an address located by its place, a start time a daylight-saving change made ambiguous; absent when none',
    ),
  ).optional(),
  warnings: sandboxOnly(
    z
      .array(rowWarningSchema)
      .describe(
        'The first 1,000 warnings, in row order; the preview shows the same ones for its rows. An import resumed after a restart lists those from the restart on (`warned` counts them all)',
      ),
  ).optional(),
};

/** What a dry run adds to the answer (nothing is written). */
export const dryRunFields = {
  dry_run: sandboxOnly(z.literal(true)),
  dry_run_notes: sandboxOnly(z.array(z.string()).describe("What a dry run here cannot know about the real service's answer")),
};

/** The results' date_orders (a kind with date columns): absent unless a date with slashes was read. */
export const dateOrdersResultField = sandboxOnly(
  z
    .array(dateOrderReadSchema)
    .describe(
      "Sandbox addition, only when a date written with slashes was read: each date column's order (day or month first) and why (the request's date_order, the file proving it, or the organization's setting). Each row whose date reads both ways (02/12/2026) also has a warning saying how it was read",
    ),
).optional();
