import { z } from 'zod';
import { sandboxOnly } from '../../http/sandbox-only.ts';

/** `row_number` beside `index` in excluded rows, warnings and the preview: this sandbox's addition, the row as the user's file shows it. */
export const rowNumberSchema = sandboxOnly(
  z
    .number()
    .int()
    .min(1)
    .describe(
      "Where the row is in the file as its user sees it: a workbook's sheet row (title, blank and header rows counted), the line a CSV row starts on (line breaks inside quoted cells counted), the element's position from 1 in a JSON array. This sandbox's addition: the real service's results have only `index`",
    ),
);
