import { useEffect, useRef, useState } from 'react';
import { isRetry } from './delivery-attempt.tsx';
import { useListPage } from '../../api/use-list-page.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { EmptyState, ResetEmptyState } from '../../components/EmptyState.tsx';
import { type Column, ListView } from '../../components/ListView.tsx';
import { type Options, SelectField } from '../../components/SelectField.tsx';
import { useLiveEvent, useRefetchOnReconnect } from '../../live/live-store.ts';
import { Link, navigate } from '../../router.tsx';
import { formatDateTime } from '../../components/date-time.ts';
import { formatReceived, type Inbox, type Message, type MessageListItem, SIGNATURE_STATUSES } from '../../api/inspector-types.ts';
import { eventLabel, webhookEvents } from '../../api/webhook-events.ts';
import { useMessageFilters } from './message-filters.ts';
import { DecryptionBadge, DuplicateBadge, SignatureBadge } from '../../components/Verdicts.tsx';

const signatureOptionLabels = { valid: 'Valid', invalid: 'Invalid', unknown: 'Not checked' } as const;
const DECRYPTION_OPTIONS: Options = [
  ['', 'Any'],
  ['true', 'Decrypted'],
  ['false', 'Not decrypted'],
];
const DUPLICATE_OPTIONS: Options = [
  ['', 'Included'],
  ['false', 'Hidden'],
  ['true', 'Only duplicates'],
];

/** What the inbox answered the sender: "200", "503 (fault)", "dropped"… */
export function answerText(answer: Message['answer']): string {
  switch (answer.kind) {
    case 'dropped':
      return answer.rule ? `dropped (rule ${answer.rule})` : 'dropped';
    case 'client_gone':
      return 'sender hung up';
    case 'forwarded':
      return `${answer.status ?? '?'} (your app)`;
    case 'forward_failed':
      return 'no answer (your app gave none)';
    case 'fault_status':
      return answer.rule ? `${answer.status ?? '?'} (rule ${answer.rule})` : `${answer.status ?? '?'} (fault)`;
    case null:
      return '—';
    default:
      return answer.status === null ? answer.kind : String(answer.status);
  }
}

function Filters() {
  const { filters, active, setFilter, clear } = useMessageFilters();
  return (
    <fieldset className="toolbar" aria-label="Filters">
      <SelectField
        label="Event"
        value={filters.event_type}
        onChange={(v) => setFilter('event_type', v)}
        options={[['', 'All events'], ...webhookEvents().map((e) => [e.type, e.label] as const)]}
      />
      <SelectField label="Decryption" value={filters.decrypted} onChange={(v) => setFilter('decrypted', v)} options={DECRYPTION_OPTIONS} />
      <SelectField
        label="Signature"
        value={filters.signature_status}
        onChange={(v) => setFilter('signature_status', v)}
        options={[['', 'Any'], ...SIGNATURE_STATUSES.map((s) => [s, signatureOptionLabels[s]] as const)]}
      />
      <SelectField label="Duplicates" value={filters.duplicate} onChange={(v) => setFilter('duplicate', v)} options={DUPLICATE_OPTIONS} />
      <span className="inline-field">
        <label htmlFor="filter-from">From</label>
        <input id="filter-from" type="datetime-local" value={filters.from} onChange={(e) => setFilter('from', e.target.value)} />
      </span>
      <span className="inline-field">
        <label htmlFor="filter-to">To</label>
        <input id="filter-to" type="datetime-local" value={filters.to} onChange={(e) => setFilter('to', e.target.value)} />
      </span>
      {active && (
        <button type="button" className="button button-small button-quiet" onClick={clear}>
          Clear filters
        </button>
      )}
    </fieldset>
  );
}

/** The inbox's messages, newest first: filters, pages, live arrivals, and picking two to compare. */
export function MessageList({ inbox }: { inbox: Inbox }) {
  const { session } = useSignedIn();
  const { active, clear, query, setParams } = useMessageFilters();
  const paged = useListPage(
    '/api/inboxes/uuid/{uuid}/messages',
    (paging) => ({ path: { uuid: inbox.uuid }, query: { organization_uuid: session.organization_uuid, ...query, ...paging } }),
    25,
  );
  const { page } = paged;
  const { refetch } = paged.list;
  const reload = () => void refetch();
  const [missed, setMissed] = useState(0);
  const [selected, setSelected] = useState<string[]>([]);

  // New messages load at once on the first page (a burst is one reload); elsewhere they are counted.
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  useLiveEvent('inbox.message', (message) => {
    if (message.inbox_uuid !== inbox.uuid) return;
    if (page !== 1) {
      setMissed((n) => n + 1);
      return;
    }
    if (pending.current === undefined) {
      pending.current = setTimeout(() => {
        pending.current = undefined;
        reload();
      }, 200);
    }
  });
  useRefetchOnReconnect(reload);

  const toggle = (uuid: string, on: boolean) =>
    setSelected((current) => (on ? [...current.filter((u) => u !== uuid), uuid].slice(-2) : current.filter((u) => u !== uuid)));
  const [first, second] = selected;
  const columns: Column<MessageListItem>[] = [
    {
      header: <span className="visually-hidden">Compare</span>,
      cellClassName: 'col-check',
      cell: (m) => (
        <input
          type="checkbox"
          checked={selected.includes(m.uuid)}
          onChange={(e) => toggle(m.uuid, e.target.checked)}
          aria-label={`Pick the message of ${formatDateTime(m.received_on)} for comparison`}
        />
      ),
    },
    {
      header: 'Received',
      cellClassName: 'nowrap',
      cell: (m) => (
        <Link
          to={`/inspector/${inbox.uuid}/messages/${m.uuid}`}
          title={formatDateTime(m.received_on)}
          aria-label={`${formatReceived(m.received_on)}: message received ${formatDateTime(m.received_on)}`}
        >
          {formatReceived(m.received_on)}
        </Link>
      ),
    },
    { header: 'Event', cell: (m) => <EventCell message={m} /> },
    {
      header: 'Attempt',
      cellClassName: 'nowrap',
      cell: (m) => {
        const n = m.attempt ?? null;
        return n === null ? <span className="muted">—</span> : `Attempt ${n}`;
      },
    },
    {
      header: 'Decryption',
      cellClassName: 'verdict-cell',
      cell: (m) => (
        <>
          <DecryptionBadge decrypted={m.decrypted} reason={m.decryption_error} />
          {!m.decrypted && m.decryption_error && (
            <span className="block small muted clamp-2" title={m.decryption_error}>
              {m.decryption_error}
            </span>
          )}
        </>
      ),
    },
    { header: 'Signature', cell: (m) => <SignatureBadge status={m.signature_status} /> },
    { header: 'Answer', cellClassName: 'nowrap', cell: (m) => answerText(m.answer) },
  ];

  return (
    <ListView
      paged={paged}
      noun={['message', 'messages']}
      columns={columns}
      toolbar={(inbox.message_count > 0 || active) && <Filters />}
      onPage={(p) => {
        if (p === 1) setMissed(0);
      }}
      aboveTable={
        <div className="compare-bar">
          <span className="muted small">
            {selected.length === 0
              ? 'Tick two messages to compare them side by side.'
              : selected.length === 1
                ? 'Tick one more message to compare.'
                : 'Two messages picked.'}
          </span>
          <button
            type="button"
            className="button button-small"
            disabled={!first || !second}
            onClick={() => first && second && navigate(`/inspector/${inbox.uuid}/compare?a=${first}&b=${second}`)}
          >
            Compare the two ticked
          </button>
        </div>
      }
      noMatch={active ? <ResetEmptyState title="No messages match these filters" reset="Clear filters" onReset={clear} /> : undefined}
      empty={
        <EmptyState title="No messages yet">
          <p>
            Deliveries to <code>{inbox.url}</code> appear here as they arrive. Register a webhook to this inbox above and send a test event,
            or post to the URL yourself.
          </p>
        </EmptyState>
      }
    >
      {missed > 0 && (
        <div className="notice notice-info" role="status">
          <span>
            {missed} new {missed === 1 ? 'message has' : 'messages have'} arrived.
          </span>
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              setMissed(0);
              setParams({ page: null });
            }}
          >
            Show the newest
          </button>
        </div>
      )}
    </ListView>
  );
}

/** The event of a message; from its header (with a ?) when the payload was not decrypted. */
function EventCell({ message: m }: { message: MessageListItem }) {
  return (
    <>
      <span className="block">
        {m.event_type ? (
          eventLabel(m.event_type)
        ) : m.headers['x-sandbox-event'] ? (
          <span className="muted" title="From the sandbox's X-Sandbox-Event header; the payload was not decrypted">
            {eventLabel(m.headers['x-sandbox-event'])}?
          </span>
        ) : (
          <span className="muted">{m.method}</span>
        )}
      </span>
      {m.duplicate_of && !isRetry(m) && <DuplicateBadge by={m.duplicate_by} />}
    </>
  );
}
