import { useEffect, useState } from 'react';
import type { QrCode } from '../../../../server/qrcodes/schemas.ts';
import { type ApiRequest, call } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';
import { useApiQuery } from '../../api/use-api.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AddressPagination } from '../../components/Pagination.tsx';
import { Link, positiveInt, useSearchParams } from '../../router.tsx';
import { ConfirmDialog } from '../inspector/ConfirmDialog.tsx';
import '../imports/imports.css';
import { QrCodeForm } from './QrCodeForm.tsx';
import { EditDeleteActions } from '../../components/EditDeleteActions.tsx';

const DEFAULT_PER_PAGE = 25;

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

/** A text filter that applies after typing stops, so every key press is not a request. */
function useDebounced(value: string, ms = 300): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function QrCodesPage() {
  const { session } = useSignedIn();
  const canEdit = session.role !== 'viewer';
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const perPage = positiveInt(params.get('per_page'), DEFAULT_PER_PAGE);
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [type, setType] = useState(params.get('type') ?? '');
  const [reference, setReference] = useState(params.get('external_reference_id') ?? '');
  const filters = { search: useDebounced(search.trim()), type: useDebounced(type.trim()), external_reference_id: useDebounced(reference.trim()) };
  const request: ApiRequest = { method: 'GET', path: '/api/qrcodes', query: { organization_uuid: session.organization_uuid, page, per_page: perPage, ...filters } };
  const list = useApiQuery<Page<QrCode>>(request);
  const [editing, setEditing] = useState<QrCode | 'new' | null>(null);
  const [deleting, setDeleting] = useState<QrCode | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  /** A new filter starts at its first page. */
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    if (page !== 1) setParams({ page: null });
  };

  const data = list.data;
  const filtered = Boolean(filters.search || filters.type || filters.external_reference_id);
  return (
    <>
      <PageHeader
        title="QR codes"
        description="The QR code addresses of your organization: each located to a latitude, longitude and time zone from its address."
        actions={
          canEdit && editing === null ? (
            <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
              New QR code
            </button>
          ) : undefined
        }
      />
      {notice && (
        <p className="notice notice-success" role="status">
          {notice}
        </p>
      )}
      {editing !== null && (
        <QrCodeForm
          key={editing === 'new' ? 'new' : editing.uuid}
          qr={editing === 'new' ? null : editing}
          organizationUuid={session.organization_uuid}
          onCancel={() => setEditing(null)}
          onSaved={(qr) => {
            setNotice(`${editing === 'new' ? 'Created' : 'Saved'} ${qr.name}: located at ${qr.timezone_name ?? 'no time zone'}.`);
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <section className="panel" aria-label="QR code list">
        <div className="toolbar">
          <label className="inline-field">
            Search
            <input type="search" value={search} onChange={(e) => filter(setSearch)(e.target.value)} placeholder="Name, address, label or reference" size={30} />
          </label>
          <label className="inline-field">
            Type
            <input value={type} onChange={(e) => filter(setType)(e.target.value)} placeholder="e.g. SITE" size={10} />
          </label>
          <label className="inline-field">
            External reference
            <input value={reference} onChange={(e) => filter(setReference)(e.target.value)} size={14} />
          </label>
        </div>
        <ErrorNotice error={list.error} onRetry={list.reload} />
        {data && data.items.length === 0 ? (
          filtered ? (
            <EmptyState title="No QR code matches">
              <p>Change the search or the filters.</p>
            </EmptyState>
          ) : (
            <EmptyState title="No QR codes yet">
              <p>
                Create one with “New QR code”, or import many from a file on the <Link to="/imports">Imports</Link> page.
              </p>
            </EmptyState>
          )
        ) : data ? (
          <div className="table-scroll">
            <table className="table" aria-label="QR codes">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Address</th>
                  <th scope="col">Located</th>
                  <th scope="col">Reference</th>
                  <th scope="col">Tags</th>
                  {canEdit && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {data.items.map((qr) => (
                  <tr key={qr.uuid}>
                    <td>{qr.name}</td>
                    <td>
                      <code>{qr.type}</code>
                    </td>
                    <td>{qr.location}</td>
                    <td>
                      <Located qr={qr} />
                    </td>
                    <td>{qr.external_reference_id ?? <span className="muted">—</span>}</td>
                    <td>
                      {qr.tags.length === 0 ? (
                        <span className="muted">—</span>
                      ) : (
                        qr.tags.map((t) => (
                          <span key={t.uuid} className="tag-chip" title={t.tag_display_name}>
                            {t.tag_name} {t.tag_number}
                          </span>
                        ))
                      )}
                    </td>
                    {canEdit && (
                      <EditDeleteActions name={qr.name} onEdit={() => setEditing(qr)} onDelete={() => setDeleting(qr)} />
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          list.loading && (
            <p className="loading" role="status">
              Loading QR codes…
            </p>
          )
        )}
        {data && data.total > 0 && (
          <AddressPagination data={data} noun={['QR code', 'QR codes']} setParams={setParams} defaultPerPage={DEFAULT_PER_PAGE} />
        )}
        <CurlDisclosure request={request} />
      </section>
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete QR code"
          request={{ method: 'DELETE', path: `/api/qrcodes/uuid/${encodeURIComponent(deleting.uuid)}` }}
          action={async () => {
            await call({ method: 'DELETE', path: `/api/qrcodes/uuid/${encodeURIComponent(deleting.uuid)}` });
            setNotice(`Deleted ${deleting.name}.`);
            setDeleting(null);
            list.reload();
          }}
          onCancel={() => setDeleting(null)}
        >
          <p>
            {deleting.location}. It disappears from lists; importing the same address (or external reference) again restores it.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
