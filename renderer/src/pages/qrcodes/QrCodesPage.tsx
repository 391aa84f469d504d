import type { QrCode } from './qrcode-types.ts';
import { CrudListPage } from '../../components/CrudListPage.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import type { Column } from '../../components/ListView.tsx';
import { useTextFilters } from '../../components/TextFilters.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { QrCodesMapPanel } from '../../components/map/QrCodesMapPanel.tsx';
import { Link, useSearchParams } from '../../router.tsx';
import './qrcodes.css';
import { QrCodeDetails } from './QrCodeDetails.tsx';
import { QrCodeForm } from './QrCodeForm.tsx';

const FILTERS = [
  { key: 'search', label: 'Search', size: 30, placeholder: 'Name, address, label or reference', type: 'search' },
  { key: 'type', label: 'Type', size: 10, placeholder: 'e.g. SITE' },
  { key: 'external_reference_id', label: 'External reference', size: 14 },
] as const;

const none = <span className="muted">—</span>;

/** Where the address was located: suburb, state, postcode, time zone and how precisely. */
function Located({ qr }: { qr: QrCode }) {
  const place = [qr.suburb, qr.state, qr.postcode].filter(Boolean).join(' ');
  return (
    <div className="located">
      <div>{place || <span className="muted">no suburb, state or postcode</span>}</div>
      <div className="muted">
        {qr.timezone_name ?? 'no time zone'}
        {qr.precision ? ` · located by ${qr.precision.replace(/_/g, ' ')}` : ' · not located'}
      </div>
    </div>
  );
}

const COLUMNS: Column<QrCode>[] = [
  { header: 'Name', cellClassName: 'cell-wrap', cell: (qr) => qr.name },
  { header: 'Type', cell: (qr) => <code>{qr.type}</code> },
  { header: 'Address', cellClassName: 'cell-wrap', cell: (qr) => qr.location },
  { header: 'Located', cell: (qr) => <Located qr={qr} /> },
  { header: 'Reference', cell: (qr) => qr.external_reference_id ?? none },
  {
    header: 'Tags',
    cell: (qr) =>
      qr.tags.length === 0
        ? none
        : qr.tags.map((t) => (
            <span key={t.uuid} className="tag-chip" title={t.tag_display_name}>
              {t.tag_name} {t.tag_number}
            </span>
          )),
  },
];

/** The QR code named by the address (`?open=uuid`, a point of a map), to open its form. */
function useOpenedQrCode() {
  const [params, setParams] = useSearchParams();
  const uuid = params.get('open') ?? '';
  const query = useQuery({ ...getQuery('/api/qrcodes/uuid/{uuid}', { path: { uuid } }), enabled: uuid !== '' });
  const close = () => setParams({ open: null });
  return {
    opened: uuid !== '' && query.data?.uuid === uuid ? { item: query.data, close } : null,
    error: uuid !== '' ? query.error : null,
    open: (next: string) => setParams({ open: next }),
  };
}

export function QrCodesPage() {
  const filters = useTextFilters(FILTERS, 'qr-filter');
  const { session } = useSignedIn();
  const queryClient = useQueryClient();
  const { opened, error, open } = useOpenedQrCode();
  return (
    <CrudListPage<QrCode>
      title="QR codes"
      description="The QR code addresses of your organization: each located to a latitude, longitude and time zone from its address."
      kind="QR code"
      path="/api/qrcodes"
      query={filters.applied}
      named={(qr) => qr.name}
      renderForm={(qr, props) =>
        qr && session.role === 'viewer' ? <QrCodeDetails qr={qr} onClose={props.onCancel} /> : <QrCodeForm qr={qr} {...props} />
      }
      savedNotice={(qr, created) => `${created ? 'Created' : 'Saved'} ${qr.name}: located at ${qr.timezone_name ?? 'no time zone'}.`}
      deleteText={(qr) => (
        <p>{qr.location}. It disappears from lists; importing the same address (or external reference) again restores it.</p>
      )}
      columns={COLUMNS}
      opened={opened}
      onChanged={() => void queryClient.invalidateQueries({ queryKey: ['/api/qrcodes/points'] })}
      beforeList={
        <QrCodesMapPanel
          organizationUuid={session.organization_uuid}
          label="Where the QR codes of the organization are"
          onOpen={open}
          note={error ? <ErrorNotice error={error} /> : undefined}
        />
      }
      textFilters={filters}
      noMatch={
        filters.active ? (
          <EmptyState title="No QR code matches">
            <p>Change the search or the filters.</p>
          </EmptyState>
        ) : undefined
      }
      empty={
        <EmptyState title="No QR codes yet">
          <p>
            Create one with “New QR code”, or import many from a file on the <Link to="/imports">Imports</Link> page.
          </p>
        </EmptyState>
      }
    />
  );
}
