import { useEffect, useRef, useState } from 'react';
import type { ApiRequest } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';
import { useApiQuery } from '../../api/use-api.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Pagination } from '../../components/Pagination.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { useLiveEvent, useRefetchOnReconnect } from '../../live/live-store.ts';
import { Link, navigate, positiveInt } from '../../router.tsx';
import { formatDateTime } from '../tasks/task-format.ts';
import { EVENT_TYPES, eventLabel, formatReceived, type Inbox, inboxPath, type Message, SIGNATURE_STATUSES } from './inspector-types.ts';
import { useMessageFilters } from './message-filters.ts';
import { DecryptionBadge, DuplicateBadge, SignatureBadge } from './Verdicts.tsx';

const signatureOptionLabels = { valid: 'Valid', invalid: 'Invalid', unknown: 'Not checked' } as const;

/** What the inbox answered the sender: "200", "503 (fault)", "dropped"… */
export function answerText(answer: Message['answer']): string {
  switch (answer.kind) {
    case 'dropped':
      return 'dropped';
    case 'client_gone':
      return 'sender hung up';
    case 'fault_status':
      return `${answer.status ?? '?'} (fault)`;
    case null:
      return '—';
    default:
      return answer.status === null ? answer.kind : String(answer.status);
  }
}

function Filters() {
  const { filters, active, setFilter, clear } = useMessageFilters();
  return (
    <div className="toolbar" role="group" aria-label="Filters">
      <SelectField label="Event" value={filters.event_type} onChange={(v) => setFilter('event_type', v)}>
        <option value="">All events</option>
        {EVENT_TYPES.map((t) => (
          <option key={t} value={t}>
            {eventLabel(t)}
          </option>
        ))}
      </SelectField>
      <SelectField label="Decryption" value={filters.decrypted} onChange={(v) => setFilter('decrypted', v)}>
        <option value="">Any</option>
        <option value="true">Decrypted</option>
        <option value="false">Not decrypted</option>
      </SelectField>
      <SelectField label="Signature" value={filters.signature_status} onChange={(v) => setFilter('signature_status', v)}>
        <option value="">Any</option>
        {SIGNATURE_STATUSES.map((s) => (
          <option key={s} value={s}>
            {signatureOptionLabels[s]}
          </option>
        ))}
      </SelectField>
      <SelectField label="Duplicates" value={filters.duplicate} onChange={(v) => setFilter('duplicate', v)}>
        <option value="">Included</option>
        <option value="false">Hidden</option>
        <option value="true">Only duplicates</option>
      </SelectField>
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
    </div>
  );
}

/** The inbox's messages, newest first: filters, pages, live arrivals, and picking two to compare. */
export function MessageList({ inbox }: { inbox: Inbox }) {
  const { session } = useSignedIn();
  const { active, clear, query, params, setParams } = useMessageFilters();
  const page = positiveInt(params.get('page'), 1);
  const perPage = positiveInt(params.get('per_page'), 25);
  const request: ApiRequest = {
    method: 'GET',
    path: `${inboxPath(inbox.uuid)}/messages`,
    query: { organization_uuid: session.organization_uuid, ...query, page, per_page: perPage },
  };
  const messages = useApiQuery<Page<Message>>(request);
  const { data, reload } = messages;
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

  const toggle = (uuid: string, on: boolean) => setSelected((current) => (on ? [...current.filter((u) => u !== uuid), uuid].slice(-2) : current.filter((u) => u !== uuid)));
  const [first, second] = selected;

  return (
    <>
      {(inbox.message_count > 0 || active) && <Filters />}
      <ErrorNotice error={messages.error} onRetry={reload} />
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
      {!data && messages.loading && (
        <p className="loading" role="status">
          Loading messages…
        </p>
      )}
      {data && data.items.length === 0 && !messages.loading && (
        active ? (
          <EmptyState title="No messages match these filters" action={<button type="button" className="button" onClick={clear}>Clear filters</button>} />
        ) : page > 1 && data.total > 0 ? (
          <EmptyState title={`There is no page ${page}`} action={<button type="button" className="button" onClick={() => setParams({ page: null })}>Go to the first page</button>} />
        ) : (
          <EmptyState title="No messages yet">
            <p>
              Deliveries to <code>{inbox.url}</code> appear here as they arrive. Register a webhook to this inbox above and send a test event, or post to the URL yourself.
            </p>
          </EmptyState>
        )
      )}
      {data && data.items.length > 0 && (
        <>
          <div className="compare-bar">
            <span className="muted small">{selected.length === 0 ? 'Tick two messages to compare them side by side.' : selected.length === 1 ? 'Tick one more message to compare.' : 'Two messages picked.'}</span>
            <button
              type="button"
              className="button button-small"
              disabled={!first || !second}
              onClick={() => first && second && navigate(`/inspector/${inbox.uuid}/compare?a=${first}&b=${second}`)}
            >
              Compare the two ticked
            </button>
          </div>
          <div className="table-scroll">
            <table className="table" aria-label="Messages" aria-busy={messages.loading}>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Compare</span>
                  </th>
                  <th scope="col">Received</th>
                  <th scope="col">Event</th>
                  <th scope="col">Decryption</th>
                  <th scope="col">Signature</th>
                  <th scope="col">Answer</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((m) => (
                  <tr key={m.uuid} data-message-uuid={m.uuid}>
                    <td className="col-check">
                      <input
                        type="checkbox"
                        checked={selected.includes(m.uuid)}
                        onChange={(e) => toggle(m.uuid, e.target.checked)}
                        aria-label={`Pick the message of ${formatDateTime(m.received_on)} for comparison`}
                      />
                    </td>
                    <td className="nowrap">
                      <Link to={`/inspector/${inbox.uuid}/messages/${m.uuid}`} title={formatDateTime(m.received_on)} aria-label={`Message received ${formatDateTime(m.received_on)}`}>
                        {formatReceived(m.received_on)}
                      </Link>
                    </td>
                    <td>
                      <span className="block">
                        {m.event_type ? (
                          eventLabel(m.event_type)
                        ) : m.headers['x-service-event'] ? (
                          <span className="muted" title="From the X-Service-Event header; the payload was not decrypted">
                            {eventLabel(m.headers['x-service-event'])}?
                          </span>
                        ) : (
                          <span className="muted">{m.method}</span>
                        )}
                      </span>
                      {m.duplicate_of && <DuplicateBadge by={m.duplicate_by} />}
                    </td>
                    <td className="verdict-cell">
                      <DecryptionBadge decrypted={m.decrypted} reason={m.decryption_error} />
                      {!m.decrypted && m.decryption_error && <span className="block small muted clamp-2" title={m.decryption_error}>{m.decryption_error}</span>}
                    </td>
                    <td>
                      <SignatureBadge status={m.signature_status} />
                    </td>
                    <td className="nowrap">{answerText(m.answer)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {data && data.total > 0 && (
        <Pagination
          page={data.page}
          pages={data.pages}
          total={data.total}
          perPage={data.per_page}
          noun={['message', 'messages']}
          onPage={(p) => {
            if (p === 1) setMissed(0);
            setParams({ page: p === 1 ? null : p });
          }}
          onPerPage={(n) => setParams({ per_page: n === 25 ? null : n, page: null })}
        />
      )}
      <CurlDisclosure request={request} />
    </>
  );
}
