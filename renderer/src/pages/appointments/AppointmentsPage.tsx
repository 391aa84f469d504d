import type { AppointmentSchedule } from '../../api/appointment-types.ts';
import type { ApiRequest } from '../../api/client.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { useListPage } from '../../api/use-list-page.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { type Column, ListView } from '../../components/ListView.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useTextFilters } from '../../components/TextFilters.tsx';
import { Link } from '../../router.tsx';
import { importKindOf, saveAttachment } from '../../api/import-api.ts';
import { AppointmentTabs } from './AppointmentTabs.tsx';
import { ActionButton } from '../../components/FormActions.tsx';

const FILTERS = [
  { key: 'qr_code_uuid', label: 'QR code uuid', size: 12 },
  { key: 'job_reference_id', label: 'Job reference', size: 10 },
  { key: 'from', label: 'From', size: 13, placeholder: 'YYYY-MM-DD' },
  { key: 'to', label: 'To', size: 13, placeholder: 'YYYY-MM-DD' },
] as const;

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
  const info = importKindOf('appointments');
  const request: ApiRequest = { method: 'GET', path: info.template_path };
  const template = useApiAction(() => saveAttachment(request, info.template_file_name));
  return (
    <span className="template-download">
      <ActionButton action={template} className="button button-small">
        Download the appointment template
      </ActionButton>
      <ErrorNotice error={template.error} onDismiss={template.clearError} />
      <CurlDisclosure request={request} download label="Show curl for the template" />
    </span>
  );
}

const COLUMNS = (onlyQrCode: (uuid: string) => void): Column<AppointmentSchedule>[] => [
  { header: 'Date', cellClassName: 'schedule-time', cell: (s) => s.appointment_date },
  {
    header: 'QR code / tag',
    cellClassName: 'cell-address',
    cell: (s) => (
      <>
        <div>{s.location}</div>
        <div className="muted">
          QR code{' '}
          <button
            type="button"
            className="link-button"
            title={`Only the appointments at QR code ${s.qr_code_uuid} (tag ${s.qr_code_tag_uuid})`}
            aria-label={`Only QR code ${s.qr_code_uuid.slice(-8)}`}
            onClick={() => onlyQrCode(s.qr_code_uuid)}
          >
            <code>{s.qr_code_uuid.slice(-8)}</code>
          </button>
        </div>
      </>
    ),
  },
  {
    header: 'Start',
    cell: (s) => (
      <>
        <TimeCell iso={s.start_date_time} />
        <div className="muted">{s.timezone_name}</div>
      </>
    ),
  },
  {
    header: 'End',
    cell: (s) => (
      <>
        <TimeCell iso={s.end_date_time} />
        {s.notes.length > 0 && <div className="field-hint">{s.notes.join(' ')}</div>}
      </>
    ),
  },
  { header: 'Duration', cellClassName: 'schedule-time', cell: (s) => minutes(s.duration) },
  { header: 'Service', cell: (s) => s.service },
  { header: 'Job reference', cell: (s) => s.job_reference_id ?? <span className="muted">—</span> },
];

export function AppointmentsPage() {
  const { session } = useSignedIn();
  const filters = useTextFilters(FILTERS, 'appointment-filter');
  const paged = useListPage(
    '/api/appointment_schedule',
    (paging) => ({ query: { organization_uuid: session.organization_uuid, ...paging, ...filters.applied } }),
    25,
  );
  return (
    <>
      <PageHeader
        title="Appointments"
        description="The appointment schedules imported for your QR code addresses, by start time. Times show as the API gives them: the local time with its UTC offset."
      />
      <AppointmentTabs />
      <section className="panel" aria-label="Appointment list">
        <ListView
          paged={paged}
          noun={['appointment', 'appointments']}
          columns={COLUMNS((uuid) => filters.change('qr_code_uuid', uuid))}
          textFilters={filters}
          toolbar={
            <p className="field-hint">
              From and To take a date (the local appointment date, both ends included) or a date and time with an offset, e.g.
              2026-03-02T09:00:00+11:00.
            </p>
          }
          noMatch={
            filters.active ? (
              <EmptyState title="No appointment matches">
                <p>Change or clear the filters.</p>
              </EmptyState>
            ) : undefined
          }
          empty={
            <EmptyState title="No appointments yet" action={<TemplateDownload />}>
              <p>
                Fill in the appointment template (one row per appointment: tag, start time, address, service) and import it on the{' '}
                <Link to="/imports">Imports</Link> page.
              </p>
            </EmptyState>
          }
        />
      </section>
    </>
  );
}
