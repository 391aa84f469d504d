import { useEffect, useState } from 'react';
import type { AppointmentSchedule } from '../../../../server/appointments/schemas.ts';
import type { ApiRequest } from '../../api/client.ts';
import { fieldProblem } from '../../api/describe-error.ts';
import type { Page } from '../../api/types.ts';
import { useApiAction, useApiQuery } from '../../api/use-api.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AddressPagination } from '../../components/Pagination.tsx';
import { Link, positiveInt, useSearchParams } from '../../router.tsx';
import { IMPORT_KINDS, saveAttachment } from '../imports/import-api.ts';
import { AppointmentTabs } from './AppointmentTabs.tsx';

const DEFAULT_PER_PAGE = 25;

const FILTERS = [
  { key: 'qr_code_uuid', label: 'QR code uuid', size: 12, placeholder: '' },
  { key: 'job_reference_id', label: 'Job reference', size: 10, placeholder: '' },
  { key: 'from', label: 'From', size: 13, placeholder: '2026-03-02' },
  { key: 'to', label: 'To', size: 13, placeholder: '2026-03-31' },
] as const;
type FilterKey = (typeof FILTERS)[number]['key'];

function useDebounced<T>(value: T, ms = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** "2026-03-02T09:00:00+11:00" → "09:00 +11:00": the wall time and the offset the API gave. */
function clock(iso: string): { time: string; offset: string } {
  const match = /T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.exec(iso);
  return match ? { time: match[1] ?? iso, offset: match[2] === 'Z' ? '+00:00' : (match[2] ?? '') } : { time: iso, offset: '' };
}

function minutes(duration: number): string {
  if (duration % 60 === 0) return `${duration / 60} h`;
  return duration > 60 ? `${Math.floor(duration / 60)} h ${duration % 60} min` : `${duration} min`;
}

function TimeCell({ iso }: { iso: string }) {
  const { time, offset } = clock(iso);
  return (
    <span className="schedule-time" title={iso}>
      {time} <span className="muted">UTC{offset}</span>
    </span>
  );
}

export function TemplateDownload() {
  const info = IMPORT_KINDS.appointments;
  const request: ApiRequest = { method: 'GET', path: info.template };
  const template = useApiAction(() => saveAttachment(request, info.templateName));
  return (
    <span className="template-download">
      <button type="button" className="button button-small" onClick={() => void template.run()} disabled={template.running}>
        Download the appointment template
      </button>
      <ErrorNotice error={template.error} onDismiss={template.clearError} />
      <CurlDisclosure request={request} download label="Show curl for the template" />
    </span>
  );
}

export function AppointmentsPage() {
  const { session } = useSignedIn();
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const perPage = positiveInt(params.get('per_page'), DEFAULT_PER_PAGE);
  const [values, setValues] = useState<Record<FilterKey, string>>(() => ({
    qr_code_uuid: params.get('qr_code_uuid') ?? '',
    job_reference_id: params.get('job_reference_id') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  }));
  const filters = useDebounced(Object.fromEntries(FILTERS.map((f) => [f.key, values[f.key].trim()])) as Record<FilterKey, string>);
  const request: ApiRequest = {
    method: 'GET',
    path: '/api/appointment_schedule',
    query: { organization_uuid: session.organization_uuid, page, per_page: perPage, ...filters },
  };
  const list = useApiQuery<Page<AppointmentSchedule>>(request);
  const filtered = FILTERS.some((f) => filters[f.key] !== '');
  const shownFields = FILTERS.map((f) => f.key.replace(/_/g, ' '));
  const data = list.data;

  const change = (key: FilterKey, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (page !== 1) setParams({ page: null });
  };

  return (
    <>
      <PageHeader
        title="Appointments"
        description="The appointment schedules imported for your QR code addresses, by start time. Times show as the API gives them: the local time with its UTC offset."
      />
      <AppointmentTabs />
      <section className="panel" aria-label="Appointment list">
        <div className="toolbar schedule-filters">
          {FILTERS.map((f) => {
            const problem = fieldProblem(list.error, f.key);
            return (
              <span key={f.key} className="filter-field">
                <label className="inline-field">
                  {f.label}
                  <input
                    value={values[f.key]}
                    onChange={(e) => change(f.key, e.target.value)}
                    size={f.size}
                    placeholder={f.placeholder || undefined}
                    aria-invalid={problem ? true : undefined}
                    aria-describedby={problem ? `appointment-filter-${f.key}-problem` : undefined}
                  />
                </label>
                {problem && (
                  <span id={`appointment-filter-${f.key}-problem`} className="field-problem">
                    {problem}
                  </span>
                )}
              </span>
            );
          })}
        </div>
        <p className="field-hint">From and To take a date (the local appointment date, both ends included) or a date and time with an offset, e.g. 2026-03-02T09:00:00+11:00.</p>
        <ErrorNotice error={list.error} onRetry={list.reload} fieldsShown={shownFields} />
        {data && data.items.length === 0 ? (
          filtered ? (
            <EmptyState title="No appointment matches">
              <p>Change or clear the filters.</p>
            </EmptyState>
          ) : (
            <EmptyState title="No appointments yet" action={<TemplateDownload />}>
              <p>
                Fill in the appointment template (one row per appointment: tag, start time, address, service) and import it on the{' '}
                <Link to="/imports">Imports</Link> page.
              </p>
            </EmptyState>
          )
        ) : data ? (
          <div className="table-scroll">
            <table className="table" aria-label="Appointments">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Start</th>
                  <th scope="col">End</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Service</th>
                  <th scope="col">Job reference</th>
                  <th scope="col">QR code / tag</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((s) => (
                  <tr key={s.uuid}>
                    <td className="schedule-time">{s.appointment_date}</td>
                    <td>
                      <TimeCell iso={s.start_date_time} />
                      <div className="muted">{s.timezone_name}</div>
                    </td>
                    <td>
                      <TimeCell iso={s.end_date_time} />
                      {s.notes.length > 0 && <div className="field-hint">{s.notes.join(' ')}</div>}
                    </td>
                    <td className="schedule-time">{minutes(s.duration)}</td>
                    <td>{s.service}</td>
                    <td>{s.job_reference_id ?? <span className="muted">—</span>}</td>
                    <td>
                      <div>{s.location}</div>
                      <div className="muted">
                        QR code{' '}
                        <button
                          type="button"
                          className="link-button"
                          title={`Only the appointments at QR code ${s.qr_code_uuid} (tag ${s.qr_code_tag_uuid})`}
                          aria-label={`Only QR code ${s.qr_code_uuid.slice(-8)}`}
                          onClick={() => change('qr_code_uuid', s.qr_code_uuid)}
                        >
                          <code>{s.qr_code_uuid.slice(-8)}</code>
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          list.loading && (
            <p className="loading" role="status">
              Loading appointments…
            </p>
          )
        )}
        {data && data.total > 0 && (
          <AddressPagination data={data} noun={['appointment', 'appointments']} setParams={setParams} defaultPerPage={DEFAULT_PER_PAGE} />
        )}
        <CurlDisclosure request={request} />
      </section>
    </>
  );
}
