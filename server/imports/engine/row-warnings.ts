import { z } from 'zod';
import { rowNumberSchema } from './row-number-schema.ts';

/** The counter of rows imported with a warning (kind.ts WriterEnv.warn), kept with the task's other counts. */
export const WARNED_COUNTER = 'warned';

export interface RowWarning {
  index: number;
  row_number: number;
  warning: string;
}

export const rowWarningSchema = z.object({
  index: z.number().int().min(0).describe('0-based position among the data rows, as in excluded rows'),
  row_number: rowNumberSchema,
  warning: z.string().describe('What was read other than as written, worded as a row error is; the row was imported'),
});

/** The results fields of an import's warnings: none when no row warned, so the results of a clean import are unchanged. */
export function warningResults(counts: Record<string, number>, warnings: RowWarning[]): { warned?: number; warnings?: RowWarning[] } {
  const warned = counts[WARNED_COUNTER] ?? 0;
  return warned > 0 ? { warned, warnings } : {};
}
