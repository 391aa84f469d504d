import { useState } from 'react';
import './inspector.css';
import { type ApiRequest, call } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';
import { useApiAction, useApiQuery } from '../../api/use-api.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AddressPagination } from '../../components/Pagination.tsx';
import { useLiveEvent } from '../../live/live-store.ts';
import { Link, navigate, positiveInt, useSearchParams } from '../../router.tsx';
import { emptyDraft, InboxForm, inboxBody, type InboxDraft } from './InboxForm.tsx';
import { droppedSummary, faultSummary, type Inbox, withArrival } from './inspector-types.ts';

export function InspectorPage() {
  const { session } = useSignedIn();
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const perPage = positiveInt(params.get('per_page'), 10);
  const request: ApiRequest = { method: 'GET', path: '/api/inboxes', query: { organization_uuid: session.organization_uuid, page, per_page: perPage } };
  const inboxes = useApiQuery<Page<Inbox>>(request);
  const { setData } = inboxes;

  useLiveEvent('inbox.message', (message) =>
    setData((current) => current && { ...current, items: current.items.map((i) => (i.uuid === message.inbox_uuid ? withArrival(i) : i)) }),
  );

  const [draft, setDraft] = useState<InboxDraft>(emptyDraft);
  const createRequest: ApiRequest = { method: 'POST', path: '/api/inboxes', body: { organization_uuid: session.organization_uuid, ...inboxBody(draft) } };
  const create = useApiAction(async () => {
    const inbox = await call<Inbox>(createRequest);
    navigate(`/inspector/${inbox.uuid}?created=1`);
  });

  const data = inboxes.data;
  return (
    <>
      <PageHeader
        title="Inspector"
        description="Inboxes receive webhook deliveries at their own URL, keep every request as it came, decrypt it and check its signature. Point a webhook at an inbox, then watch its messages arrive."
      />
      <section className="panel" aria-labelledby="inboxes-title">
        <div className="panel-header">
          <h2 id="inboxes-title">Inboxes</h2>
          <button type="button" className="button button-small" onClick={inboxes.reload} disabled={inboxes.loading}>
            Refresh
          </button>
        </div>
        <ErrorNotice error={inboxes.error} onRetry={inboxes.reload} />
        {!data && inboxes.loading && (
          <p className="loading" role="status">
            Loading inboxes…
          </p>
        )}
        {data && data.items.length === 0 && !inboxes.loading && (
          page > 1 && data.total > 0 ? (
            <EmptyState title={`There is no page ${page}`} action={<button type="button" className="button" onClick={() => setParams({ page: null })}>Go to the first page</button>} />
          ) : (
            <EmptyState title="No inboxes yet">
              <p>Create one below. It gets a URL on this machine; register a webhook to that URL (one click on the inbox's page) and every delivery shows up there, decrypted and verified.</p>
            </EmptyState>
          )
        )}
        {data && data.items.length > 0 && (
          <div className="table-scroll">
            <table className="table" aria-label="Inboxes">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">URL</th>
                  <th scope="col">Messages</th>
                  <th scope="col">Behaviour</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((inbox) => (
                  <tr key={inbox.uuid}>
                    <td>
                      <Link to={`/inspector/${inbox.uuid}`}>{inbox.name}</Link>
                    </td>
                    <td className="url-cell">
                      <code className="truncate-inline" title={inbox.url}>
                        {inbox.url}
                      </code>
                      <CopyButton text={inbox.url} label="Copy" ariaLabel={`Copy the URL of ${inbox.name}`} />
                    </td>
                    <td className="num">
                      {inbox.message_count.toLocaleString()}
                      {droppedSummary(inbox) && <span className="block muted small">{droppedSummary(inbox)}</span>}
                    </td>
                    <td>
                      {faultSummary(inbox.response) ? <span className="badge badge-pending">{faultSummary(inbox.response)}</span> : <span className="muted">answers normally</span>}
                      {inbox.forward_to && (
                        <span className="block muted small" title={inbox.forward_to}>
                          forwards to {inbox.forward_to}
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {data && data.total > 0 && (
          <AddressPagination data={data} noun={['inbox', 'inboxes']} setParams={setParams} />
        )}
        <CurlDisclosure request={request} />
      </section>
      <section className="panel">
        <InboxForm
          title="Create an inbox"
          draft={draft}
          onChange={setDraft}
          onSubmit={() => void create.run()}
          submitLabel="Create inbox"
          running={create.running}
          error={create.error}
          onDismissError={create.clearError}
          request={createRequest}
        />
      </section>
    </>
  );
}
