import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { excludedRowsPage, findJob, storedRowNumber } from '../imports/workers/job-store.ts';
import { type AppointmentImportResult, appointmentImportResultSchema, type ExcludedAppointment } from './schemas.ts';
import { takeUpsertedSchedules } from './store.ts';

/** The sync-mode answer of an appointment import (docs/imports.md): every upserted schedule and every excluded row. */
export async function syncAnswer(db: Kysely<Database>, taskUuid: string, collectKey: string): Promise<AppointmentImportResult> {
  return {
    appointment_schedules_upserted: await takeUpsertedSchedules(db, collectKey),
    excluded_appointments: await allExcluded(db, taskUuid),
  };
}

/** Every excluded row of a task, in row order, each with the row as given (task results keep only the first 1,000). */
async function allExcluded(db: Kysely<Database>, taskUuid: string): Promise<ExcludedAppointment[]> {
  const job = await findJob(db, taskUuid);
  const headers = job?.headers ? (JSON.parse(job.headers) as string[]) : null;
  const excluded: ExcludedAppointment[] = [];
  let after = -1;
  for (;;) {
    const page = await excludedRowsPage(db, taskUuid, after, 1000);
    if (page.length === 0) return excluded;
    for (const row of page)
      excluded.push({
        index: row.row_index,
        row_number: storedRowNumber(row),
        data: rowAsGiven(JSON.parse(row.cells), headers),
        error_message: row.error,
      });
    after = page[page.length - 1]?.row_index ?? after;
  }
}

/** A JSON element as it was; a file row as {column title: cell}. */
function rowAsGiven(cells: unknown, headers: string[] | null): Record<string, unknown> {
  if (cells && typeof cells === 'object' && !Array.isArray(cells)) return cells as Record<string, unknown>;
  if (!Array.isArray(cells)) return { value: cells };
  return Object.fromEntries((headers ?? cells.map((_c, i) => `column_${i + 1}`)).map((title, i) => [title, cells[i] ?? null]));
}

/** What the task's results add to the sync answer, when they have it: the sheet, the encoding, the date orders read and the rows' warnings. */
export function syncAnswerExtras(results: Record<string, unknown>): Partial<AppointmentImportResult> {
  const extras = appointmentImportResultSchema
    .pick({ sheet: true, encoding: true, date_orders: true, warned: true, warnings: true })
    .safeParse(results);
  if (!extras.success) return {};
  return Object.fromEntries(Object.entries(extras.data).filter(([, value]) => value !== undefined));
}
