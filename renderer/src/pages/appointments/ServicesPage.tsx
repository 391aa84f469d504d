import { useState } from 'react';
import type { Service } from '../../../../server/services/schemas.ts';
import { type ApiRequest, call } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';
import { useApiQuery } from '../../api/use-api.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AddressPagination } from '../../components/Pagination.tsx';
import { positiveInt, useSearchParams } from '../../router.tsx';
import { ConfirmDialog } from '../inspector/ConfirmDialog.tsx';
import '../imports/imports.css';
import { AppointmentTabs } from './AppointmentTabs.tsx';
import { ServiceForm } from './ServiceForm.tsx';
import { EditDeleteActions } from '../../components/EditDeleteActions.tsx';

const DEFAULT_PER_PAGE = 25;

export function ServicesPage() {
  const { session } = useSignedIn();
  const canEdit = session.role !== 'viewer';
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const perPage = positiveInt(params.get('per_page'), DEFAULT_PER_PAGE);
  const request: ApiRequest = { method: 'GET', path: '/api/services', query: { organization_uuid: session.organization_uuid, page, per_page: perPage } };
  const list = useApiQuery<Page<Service>>(request);
  const [editing, setEditing] = useState<Service | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Service | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const data = list.data;
  const deleteRequest = (s: Service): ApiRequest => ({ method: 'DELETE', path: `/api/services/uuid/${encodeURIComponent(s.uuid)}` });

  return (
    <>
      <PageHeader
        title="Appointments"
        description="The service catalog: an appointment import matches each row's service name or code against it."
        actions={
          canEdit && editing === null ? (
            <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
              New service
            </button>
          ) : undefined
        }
      />
      <AppointmentTabs />
      {notice && (
        <p className="notice notice-success" role="status">
          {notice}
        </p>
      )}
      {editing !== null && (
        <ServiceForm
          key={editing === 'new' ? 'new' : editing.uuid}
          service={editing === 'new' ? null : editing}
          organizationUuid={session.organization_uuid}
          onCancel={() => setEditing(null)}
          onSaved={(s) => {
            setNotice(`${editing === 'new' ? 'Created' : 'Saved'} the service ${s.name}.`);
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <section className="panel" aria-label="Service list">
        <ErrorNotice error={list.error} onRetry={list.reload} />
        {data && data.items.length === 0 ? (
          <EmptyState title="No services yet">
            <p>Appointment rows name a service; add the services your organization offers with “New service”.</p>
          </EmptyState>
        ) : data ? (
          <div className="table-scroll">
            <table className="table" aria-label="Services">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Code</th>
                  <th scope="col">Categories</th>
                  {canEdit && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {data.items.map((s) => (
                  <tr key={s.uuid}>
                    <td>{s.name}</td>
                    <td>{s.code ? <code>{s.code}</code> : <span className="muted">—</span>}</td>
                    <td>
                      {s.categories.length === 0 ? (
                        <span className="muted">—</span>
                      ) : (
                        s.categories.map((c) => (
                          <span key={c.uuid} className="tag-chip">
                            {c.name}
                          </span>
                        ))
                      )}
                    </td>
                    {canEdit && (
                      <EditDeleteActions name={s.name} onEdit={() => setEditing(s)} onDelete={() => setDeleting(s)} />
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          list.loading && (
            <p className="loading" role="status">
              Loading services…
            </p>
          )
        )}
        {data && data.total > 0 && (
          <AddressPagination data={data} noun={['service', 'services']} setParams={setParams} defaultPerPage={DEFAULT_PER_PAGE} />
        )}
        <CurlDisclosure request={request} />
      </section>
      {deleting && (
        <ConfirmDialog
          title={`Delete the service ${deleting.name}?`}
          confirmLabel="Delete service"
          request={deleteRequest(deleting)}
          action={async () => {
            await call(deleteRequest(deleting));
            setNotice(`Deleted the service ${deleting.name}.`);
            setDeleting(null);
            list.reload();
          }}
          onCancel={() => setDeleting(null)}
        >
          <p>Existing appointments keep its name; imports stop matching it, so rows naming it are excluded until it is added again.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
