import type { Response } from 'express';
import type { AppContext } from '../context.ts';
import { sendTable } from '../imports/reports/table-download.ts';
import { fixedRows } from './drafts.ts';
import type { DraftRecord } from './store.ts';

/** The draft's rows not yet imported, with their fixes, as a CSV or XLSX of the kind's columns (a file the import takes as it is). */
export async function sendFixedRows(
  res: Response,
  ctx: AppContext,
  draft: DraftRecord,
  columns: readonly string[],
  format: 'csv' | 'xlsx',
): Promise<void> {
  await sendTable(res, {
    filenameBase: `fixed-rows-${draft.source_task_uuid ?? draft.uuid}`,
    format,
    sheetName: 'Fixed rows',
    header: columns,
    rows: fixedRows(ctx, draft, columns),
  });
}
