import { writeCall } from '../../api/write-call.ts';
import { useState } from 'react';
import './inspector.css';
import { useApiAction } from '../../api/use-api-action.ts';
import { useListPage } from '../../api/use-list-page.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { type Column, ListPanel, ListView } from '../../components/ListView.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Link, navigate } from '../../router.tsx';
import { emptyDraft, InboxForm, inboxBody, type InboxDraft } from './InboxForm.tsx';
import { droppedSummary, type Inbox } from '../../api/inspector-types.ts';
import { rulesSummary } from './rules-draft.ts';

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
        {rulesSummary(inbox.rules) ? (
          <span className="badge badge-pending">{rulesSummary(inbox.rules)}</span>
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
  const paged = useListPage('/api/inboxes', (paging) => ({ query: { organization_uuid: session.organization_uuid, ...paging } }));

  const [draft, setDraft] = useState<InboxDraft>(emptyDraft);
  const createCall = writeCall('post', '/api/inboxes', { body: { organization_uuid: session.organization_uuid, ...inboxBody(draft) } });
  const createRequest = createCall.request;
  const create = useApiAction(async () => {
    const inbox = await createCall.send();
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
