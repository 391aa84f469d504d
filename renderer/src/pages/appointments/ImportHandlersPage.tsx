import { useState } from 'react';
import type { ImportHandler } from '../../../../server/import-handlers/schemas.ts';
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
import { AppointmentTabs } from './AppointmentTabs.tsx';
import { ImportHandlerForm } from './ImportHandlerForm.tsx';
import { EditDeleteActions } from '../../components/EditDeleteActions.tsx';

const DEFAULT_PER_PAGE = 25;

export function ImportHandlersPage() {
  const { session } = useSignedIn();
  const canEdit = session.role !== 'viewer';
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const perPage = positiveInt(params.get('per_page'), DEFAULT_PER_PAGE);
  const request: ApiRequest = { method: 'GET', path: '/api/import-handlers', query: { organization_uuid: session.organization_uuid, page, per_page: perPage } };
  const list = useApiQuery<Page<ImportHandler>>(request);
  const [editing, setEditing] = useState<ImportHandler | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ImportHandler | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const data = list.data;
  const deleteRequest = (h: ImportHandler): ApiRequest => ({ method: 'DELETE', path: `/api/import-handlers/uuid/${encodeURIComponent(h.uuid)}` });

  return (
    <>
      <PageHeader
        title="Appointments"
        description={
          <>
            Import handlers read your own file layout: each maps your column titles to the appointment fields. Choose one on the{' '}
            <Link to="/imports">Imports</Link> page (org_identifier); <code>default</code> reads the template&apos;s column names.
          </>
        }
        actions={
          canEdit && editing === null ? (
            <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
              New import handler
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
        <ImportHandlerForm
          key={editing === 'new' ? 'new' : editing.uuid}
          handler={editing === 'new' ? null : editing}
          organizationUuid={session.organization_uuid}
          onCancel={() => setEditing(null)}
          onSaved={(h) => {
            setNotice(`${editing === 'new' ? 'Created' : 'Saved'} the import handler ${h.name} (org_identifier ${h.slug}).`);
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <section className="panel" aria-label="Import handler list">
        <ErrorNotice error={list.error} onRetry={list.reload} />
        {data && data.items.length === 0 ? (
          <EmptyState title="No import handlers yet">
            <p>
              Files laid out like the template need none. If your export names its columns differently (e.g. “Job Ref” for job_reference_id), create a handler with “New import
              handler”.
            </p>
          </EmptyState>
        ) : data ? (
          <div className="table-scroll">
            <table className="table" aria-label="Import handlers">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Slug (org_identifier)</th>
                  <th scope="col">Columns</th>
                  {canEdit && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {data.items.map((h) => (
                  <tr key={h.uuid}>
                    <td>{h.name}</td>
                    <td>
                      <code>{h.slug}</code>
                    </td>
                    <td>
                      <ul className="mapping-list">
                        {Object.entries(h.mapping).map(([title, field]) => (
                          <li key={title}>
                            “{title}” → <code>{field}</code>
                          </li>
                        ))}
                      </ul>
                    </td>
                    {canEdit && (
                      <EditDeleteActions name={h.name} onEdit={() => setEditing(h)} onDelete={() => setDeleting(h)} />
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          list.loading && (
            <p className="loading" role="status">
              Loading import handlers…
            </p>
          )
        )}
        {data && data.total > 0 && (
          <AddressPagination data={data} noun={['import handler', 'import handlers']} setParams={setParams} defaultPerPage={DEFAULT_PER_PAGE} />
        )}
        <CurlDisclosure request={request} />
      </section>
      {deleting && (
        <ConfirmDialog
          title={`Delete the import handler ${deleting.name}?`}
          confirmLabel="Delete import handler"
          request={deleteRequest(deleting)}
          action={async () => {
            await call(deleteRequest(deleting));
            setNotice(`Deleted the import handler ${deleting.name}.`);
            setDeleting(null);
            list.reload();
          }}
          onCancel={() => setDeleting(null)}
        >
          <p>
            Imports that send org_identifier <code>{deleting.slug}</code> are refused afterwards. Appointments already imported stay.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
