import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import type { AppContext } from '../context.ts';
import type { DraftRecord } from './store.ts';
import { draftStore } from './store.ts';
import { fixedRowsCsv } from './drafts.ts';

const PAGE = 1000;

/** The draft's rows not yet imported, with their fixes, as a CSV or XLSX of the kind's columns (a file the import takes as it is). */
export async function sendFixedRows(
  res: Response,
  ctx: AppContext,
  draft: DraftRecord,
  columns: readonly string[],
  format: 'csv' | 'xlsx',
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Disposition', `attachment; filename="fixed-rows-${draft.source_task_uuid ?? draft.uuid}.${format}"`);
  res.setHeader('Cache-Control', 'no-store');
  if (format === 'csv') {
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    const chunks = fixedRowsCsv(ctx, draft, columns);
    async function* withBom() {
      yield '\uFEFF';
      yield* chunks;
    }
    await pipeline(withBom(), res);
    return;
  }
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const { default: ExcelJS } = await import('exceljs');
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Fixed rows');
  sheet.addRow([...columns]).commit();
  const store = draftStore(ctx.db.sqlite);
  for (let after = 0; ; ) {
    const page = store.rowsAfter(draft.uuid, after, PAGE);
    if (page.length === 0) break;
    for (const row of page) {
      const cells = JSON.parse(row.cells) as Record<string, string>;
      sheet.addRow(columns.map((c) => cells[c] ?? '')).commit();
    }
    after = page[page.length - 1]?.row_id ?? after;
  }
  sheet.commit();
  await Promise.all([pipeline(output, res), workbook.commit()]);
}
