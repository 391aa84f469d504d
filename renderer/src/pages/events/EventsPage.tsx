import './events.css';
import { useRef } from 'react';
import { useListPage } from '../../api/use-list-page.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { GoToEmptyState, ResetEmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AddressPagination } from '../../components/Pagination.tsx';
import { Loading } from '../../components/QueryState.tsx';
import { StatList } from '../../components/StatList.tsx';
import { Table } from '../../components/Table.tsx';
import { useNow } from '../../components/use-now.ts';
import { Link, useSearchParams } from '../../router.tsx';
import { formatDateTime } from '../../components/date-time.ts';
import { deliveryStatusLabels } from '../../api/webhook-format.ts';
import type { Schemas } from '../../api/types.ts';
import { agoText, eventSentence, shortUrl } from './event-text.ts';
import { useActivity } from '../../live/use-activity.ts';
import { EventsPerMinute } from './EventsPerMinute.tsx';
import { DemoMap } from './DemoMap.tsx';
import { DemoPreparing } from './DemoPreparing.tsx';
import { countOf } from '../../../../common/count-words.ts';
import { EVENT_FILTERS, EventFilters } from './EventFilters.tsx';
import { useDemoTargets } from './demo-targets.ts';

type EventSummary = Schemas['EventSummary'];
/** How long a new row stays highlighted. */
const NEW_ROW_MS = 4_000;

function DemoBanner({ intervalMs }: { intervalMs: number }) {
  return (
    <div className="demo-banner" role="status">
      <strong>Demo mode</strong>
      <span>
        A simulated check-in, check-out or delivery arrives every {Math.round(intervalMs / 1000)} s, is encrypted, signed and delivered to
        the demo inbox and to a flaky app that fails the first two attempts of each check-out. Everything runs on this machine; nothing
        needs the internet.
      </span>
    </div>
  );
}

function NextSteps({ organizationUuid }: { organizationUuid: string }) {
  const targets = useDemoTargets(organizationUuid);
  return (
    <nav className="panel next-steps" aria-label="Things to try next">
      <h2>Try next</h2>
      <ol>
        <li>
          <Link to={targets.demoInbox}>Open the demo inbox</Link>: each delivery decrypted, its signature checked (one is broken: ask the
          doctor).
        </li>
        <li>
          <Link to={targets.flakyWebhook}>Open the flaky app's delivery log</Link>: retries counting down, every attempt's request and
          response, and Redeliver.
        </li>
        <li>
          <Link to="/imports">Import a spreadsheet</Link>: a CSV or Excel file of QR code addresses or appointments.
        </li>
      </ol>
    </nav>
  );
}

function Deliveries({ event }: { event: EventSummary }) {
  if (event.deliveries.length === 0) return <span className="muted">No webhook listens to this event</span>;
  return (
    <ul className="event-deliveries">
      {event.deliveries.map((d) => (
        <li key={d.delivery_id}>
          <Link
            to={`/webhooks/${encodeURIComponent(d.webhook_uuid)}?delivery=${encodeURIComponent(d.delivery_id)}`}
            className={`badge badge-delivery-${d.status}`}
            title={`${d.webhook_url}: ${deliveryStatusLabels[d.status]} after ${d.attempt_count} attempt(s)`}
          >
            {deliveryStatusLabels[d.status]}
            {d.last_status_code !== null && ` ${d.last_status_code}`}
          </Link>{' '}
          <span className="muted small event-webhook">{shortUrl(d.webhook_url)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Marks the ids that arrived after the first load, with when they arrived. */
function useArrivals(ids: string[] | undefined, now: number): (id: string) => boolean {
  const seen = useRef<Map<string, number> | null>(null);
  if (ids) {
    if (seen.current === null) seen.current = new Map(ids.map((id) => [id, 0]));
    else for (const id of ids) if (!seen.current.has(id)) seen.current.set(id, Date.now());
  }
  return (id) => now - (seen.current?.get(id) ?? 0) < NEW_ROW_MS;
}

/** Events across all webhooks, live: what happened in plain words, and where each was delivered. */
export function EventsPage() {
  const { session } = useSignedIn();
  const activity = useActivity();
  const [params] = useSearchParams();
  const filters = Object.fromEntries(EVENT_FILTERS.flatMap((name) => (params.get(name) ? [[name, params.get(name)]] : [])));
  const filtered = Object.keys(filters).length > 0;
  const paged = useListPage(
    '/api/webhook-events',
    (paging) => ({ query: { organization_uuid: session.organization_uuid, ...filters, ...paging } }),
    25,
  );
  const now = useNow(true);
  const data = paged.list.data;
  const isNew = useArrivals(paged.page === 1 ? data?.items.map((e) => e.id) : undefined, now);
  const counts = activity.data;
  const demo = counts?.demo ?? null;

  return (
    <>
      {demo && <DemoBanner intervalMs={demo.interval_ms} />}
      <PageHeader
        title="Events"
        description="Every check-in, check-out and delivery of your organization, newest first, and what became of each webhook delivery."
      />
      <div className="events-top">
        <section className="panel events-counters" aria-label="Counters">
          <StatList
            label="Running counters"
            stats={
              counts
                ? [
                    { key: 'events', label: 'events', value: counts.events },
                    { key: 'ok', label: 'deliveries ok', value: counts.deliveries.delivered },
                    { key: 'failed', label: 'deliveries failed', value: counts.deliveries.failed },
                    { key: 'imports', label: 'imports', value: counts.imports },
                  ]
                : []
            }
          />
          {counts && counts.deliveries.pending > 0 && (
            <p className="muted small">{countOf(counts.deliveries.pending, 'delivery', 'deliveries')} waiting to be sent or retried.</p>
          )}
          <EventsPerMinute />
        </section>
        {demo && <NextSteps organizationUuid={session.organization_uuid} />}
      </div>
      {demo && <DemoMap organizationUuid={session.organization_uuid} events={filtered ? [] : (data?.items ?? [])} now={now} />}
      <section className="panel" aria-label="Event list">
        <EventFilters params={paged.params} setParams={paged.setParams} />
        <ErrorNotice error={paged.list.error} onRetry={() => void paged.list.refetch()} />
        {paged.list.isPending && <Loading>Loading events…</Loading>}
        {data && data.total === 0 && filtered ? (
          <ResetEmptyState
            title="No events match these filters"
            reset="Show all events"
            onReset={() => paged.setParams(Object.fromEntries([...EVENT_FILTERS, 'page'].map((name) => [name, null])))}
          />
        ) : data && data.total === 0 && demo ? (
          <DemoPreparing />
        ) : data && data.total === 0 ? (
          <GoToEmptyState title="No events yet" to="/webhooks" label="Go to Webhooks">
            <p>Register a webhook and send a test check-in from its page: the event and its delivery appear here as they happen.</p>
          </GoToEmptyState>
        ) : (
          data && (
            <>
              <Table label="Events" headings={['Time', 'Event', 'Deliveries']} className="table events-table">
                {data.items.map((event) => (
                  <tr key={event.id} className={isNew(event.id) ? 'event-row-new' : undefined} data-event-id={event.id}>
                    <td className="nowrap" title={formatDateTime(event.created_at)}>
                      {agoText(event.created_at, now)}
                    </td>
                    <td className="event-cell">
                      <span className="event-sentence">{eventSentence(event)}</span>
                      <span className="muted small event-meta">
                        {event.worker && <>by {event.worker} · </>}
                        <code>{event.id}</code>
                      </span>
                    </td>
                    <td>
                      <Deliveries event={event} />
                    </td>
                  </tr>
                ))}
              </Table>
              <AddressPagination data={data} noun={['event', 'events']} setParams={paged.setParams} defaultPerPage={25} />
            </>
          )
        )}
      </section>
    </>
  );
}
