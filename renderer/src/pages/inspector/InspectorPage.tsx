import { useState } from 'react';
import './inspector.css';
import { type ApiRequest, call } from '../../api/client.ts';
import { useApiAction } from '../../api/use-api.ts';
import { usePagedList } from '../../api/use-paged-list.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { type Column, ListPanel, ListView } from '../../components/ListView.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useLiveEvent } from '../../live/live-store.ts';
import { Link, navigate } from '../../router.tsx';
import { emptyDraft, InboxForm, inboxBody, type InboxDraft } from './InboxForm.tsx';
import { droppedSummary, faultSummary, type Inbox, withArrival } from './inspector-types.ts';

const INBOX_COLUMNS: Column<Inbox>[] = [
  { header: 'Name', cell: (inbox) => <Link to={`/inspector/${inbox.uuid}`}>{inbox.name}</Link> },
  {
    header: 'URL',
    cellClassName: 'url-cell',
    cell: (inbox) => (
      <>
        <code className="truncate-inline" title={inbox.url}>
          {inbox.url}
        </code>
        <CopyButton text={inbox.url} label="Copy" ariaLabel={`Copy the URL of ${inbox.name}`} />
      </>
    ),
  },
  {
    header: 'Messages',
    cellClassName: 'num',
    cell: (inbox) => (
      <>
        {inbox.message_count.toLocaleString()}
        {droppedSummary(inbox) && <span className="block muted small">{droppedSummary(inbox)}</span>}
      </>
    ),
  },
  {
    header: 'Behaviour',
    cell: (inbox) => (
      <>
        {faultSummary(inbox.response) ? (
          <span className="badge badge-pending">{faultSummary(inbox.response)}</span>
        ) : (
          <span className="muted">answers normally</span>
        )}
        {inbox.forward_to && (
          <span className="block muted small" title={inbox.forward_to}>
            forwards to {inbox.forward_to}
          </span>
        )}
      </>
    ),
  },
];

export function InspectorPage() {
  const { session } = useSignedIn();
  const paged = usePagedList<Inbox>((paging) => ({
    method: 'GET',
    path: '/api/inboxes',
    query: { organization_uuid: session.organization_uuid, ...paging },
  }));
  const { setData } = paged.list;

  useLiveEvent('inbox.message', (message) =>
    setData((current) => current && { ...current, items: current.items.map((i) => (i.uuid === message.inbox_uuid ? withArrival(i) : i)) }),
  );

  const [draft, setDraft] = useState<InboxDraft>(emptyDraft);
  const createRequest: ApiRequest = {
    method: 'POST',
    path: '/api/inboxes',
    body: { organization_uuid: session.organization_uuid, ...inboxBody(draft) },
  };
  const create = useApiAction(async () => {
    const inbox = await call<Inbox>(createRequest);
    navigate(`/inspector/${inbox.uuid}?created=1`);
  });

  return (
    <>
      <PageHeader
        title="Inspector"
        description="Inboxes receive webhook deliveries at their own URL, keep every request as it came, decrypt it and check its signature. Point a webhook at an inbox, then watch its messages arrive."
      />
      <ListPanel title="Inboxes" list={paged.list}>
        <ListView
          paged={paged}
          noun={['inbox', 'inboxes']}
          columns={INBOX_COLUMNS}
          empty={
            <EmptyState title="No inboxes yet">
              <p>
                Create one below. It gets a URL on this machine; register a webhook to that URL (one click on the inbox's page) and every
                delivery shows up there, decrypted and verified.
              </p>
            </EmptyState>
          }
        />
      </ListPanel>
      <section className="panel">
        <InboxForm
          title="Create an inbox"
          draft={draft}
          onChange={setDraft}
          submitLabel="Create inbox"
          action={create}
          request={createRequest}
        />
      </section>
    </>
  );
}
