import { useMemo } from 'react';
import type { AppointmentSchedule } from '../../api/appointment-types.ts';
import { type Column, VirtualTable } from '../../components/VirtualTable.tsx';
import { ExcludedRowsTable, type FileColumns } from '../../components/import-results/ExcludedRowsTable.tsx';
import { excludedRows, excludedTotal, type ResultsOf } from '../../api/task-format.ts';
import { importKindOf, type ImportKindName } from '../../api/import-api.ts';
import { fileTaskType } from '../../api/import-kinds.ts';
import type { CheckAnswer, TaskType } from '../../api/types.ts';
import { importStats } from '../../components/import-results/result-stats.ts';
import { StatList } from '../../components/StatList.tsx';
import { RowWarnings } from '../../components/import-results/RowWarnings.tsx';
import { DateOrdersRead } from '../../components/import-results/DateOrdersRead.tsx';
import { Panel } from '../../components/Panel.tsx';

/** 2026-03-02T09:00:00+11:00 as "09:00 +11:00", with the date when it is not the appointment's. */
function localTime(iso: string, date: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.exec(iso);
  if (!match) return iso;
  const [, day, time, offset] = match;
  return `${day === date ? '' : `${day} `}${time} ${offset === 'Z' ? 'UTC' : offset}`;
}

const scheduleColumns: Column<AppointmentSchedule>[] = [
  { key: 'date', header: 'Date', width: 7, cell: (s) => s.appointment_date },
  {
    key: 'start',
    header: 'Start',
    width: 8,
    cell: (s) => localTime(s.start_date_time, s.appointment_date),
    title: (s) => `${s.start_date_time} (${s.timezone_name ?? ''})`,
  },
  {
    key: 'end',
    header: 'End',
    width: 8,
    cell: (s) => localTime(s.end_date_time, s.appointment_date),
    title: (s) => [s.end_date_time, ...s.notes].join(' '),
  },
  { key: 'duration', header: 'Minutes', width: 5, cell: (s) => s.duration },
  { key: 'service', header: 'Service', width: 9, cell: (s) => s.service },
  { key: 'job', header: 'Job reference', width: 8, cell: (s) => s.job_reference_id ?? '', title: (s) => s.job_reference_id ?? '' },
  { key: 'zone', header: 'Time zone', width: 10, cell: (s) => s.timezone_name ?? '' },
  { key: 'location', header: 'Location', width: 14, grow: true, cell: (s) => s.location, title: (s) => s.location },
];

/** The answer read as import results: a file import's task type, and counts for list-only (sync) answers. */
function asResults(kind: ImportKindName, fileName: string, answer: CheckAnswer): ResultsOf {
  const { dry_run: _flag, dry_run_notes: _notes, ...results } = answer;
  const upserted = results.appointment_schedules_upserted;
  if (Array.isArray(upserted) && typeof results.upserted !== 'number') results.upserted = upserted.length;
  const excluded = results.excluded_appointments;
  if (Array.isArray(excluded) && typeof results.excluded !== 'number') results.excluded = excluded.length;
  return { task_type: fileTaskType(kind) as TaskType, results, metadata: { filename: fileName } };
}

/** What an import of the file would give, from a dry run: counts, excluded rows, computed appointments, and what the check cannot know. */
export function CheckResult({
  kind,
  fileName,
  answer,
  file,
}: {
  kind: ImportKindName;
  fileName: string;
  answer: CheckAnswer;
  /** The checked file's own column names and sheet, from its preview. */
  file?: FileColumns;
}) {
  const results = useMemo(() => asResults(kind, fileName, answer), [kind, fileName, answer]);
  const rows = useMemo(() => excludedRows(results), [results]);
  const counts = importStats(results);
  const total = excludedTotal(results, rows.length);
  const schedules = Array.isArray(answer.appointment_schedules_upserted)
    ? (answer.appointment_schedules_upserted as AppointmentSchedule[])
    : [];
  const upserted = typeof results.results?.upserted === 'number' ? results.results.upserted : schedules.length;
  return (
    <Panel title="Check result: nothing was imported" actions={null}>
      <p className="muted">
        The whole file went through the import here ({importKindOf(kind).checks}), and nothing was written. This is what “Start the import”
        would give now.
      </p>
      <StatList stats={counts} label="Check counts" />
      <DateOrdersRead task={results} />
      <RowWarnings task={results} />
      <h3>Rows that would be excluded</h3>
      {total === 0 ? (
        <p className="muted">None: every row would be imported.</p>
      ) : (
        <>
          {total > rows.length && (
            <p className="notice notice-info">
              The first {rows.length.toLocaleString()} of {total.toLocaleString()} are listed. Import the file to get an error report with
              all of them.
            </p>
          )}
          <ExcludedRowsTable rows={rows} {...(file ? { file } : {})} />
        </>
      )}
      {schedules.length > 0 && (
        <>
          <h3>Appointments it would create or update</h3>
          {upserted > schedules.length && (
            <p className="field-hint">
              The first {schedules.length.toLocaleString()} of {upserted.toLocaleString()}, with the start and end computed in each
              address's time zone.
            </p>
          )}
          <VirtualTable
            label="Appointments the import would create or update"
            columns={scheduleColumns}
            rows={schedules}
            rowKey={(_s, i) => i}
            height={320}
          />
        </>
      )}
      {answer.dry_run_notes && answer.dry_run_notes.length > 0 && (
        <div className="notice notice-info check-notes">
          <div>
            <strong>What this check cannot know about the real service</strong>
            <ul className="notice-fields">
              {answer.dry_run_notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </Panel>
  );
}
