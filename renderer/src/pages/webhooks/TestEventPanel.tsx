import { writeCall } from '../../api/write-call.ts';
import { type FormEvent, useDeferredValue, useEffect, useId, useState } from 'react';
import { ApiFailure } from '../../api/client.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Link } from '../../router.tsx';
import { eventLabel, firstSimulatedEventType, type SimulatedEventType, simulatedEventTypes } from '../../api/webhook-events.ts';
import type { QrCodeChoice, SimulateResponse } from '../../api/webhook-types.ts';
import { SubmitButton } from '../../components/FormActions.tsx';
import { countOf } from '../../../../common/count-words.ts';
import { CodeBlock } from '../../components/CodeBlock.tsx';

const ANY = '';
const QR_PICKER_SIZE = 50;

function qrCodeLabel(qr: QrCodeChoice): string {
  const name = qr.name?.trim() || qr.location?.trim() || qr.uuid;
  return qr.location && qr.location !== name ? `${name} — ${qr.location}` : name;
}

function SentEvent({ sent }: { sent: { answer: SimulateResponse; event: SimulatedEventType } }) {
  const { event, deliveries } = sent.answer;
  return (
    <section className="sent-event" aria-label="Event sent">
      <p>
        <strong>{eventLabel(sent.event)} event sent.</strong> Event id <code>{event.id}</code>, at {event.data.location || 'a QR code'}.
      </p>
      {deliveries.length === 0 ? (
        <p className="notice notice-info">
          No active webhook subscribes to {eventLabel(sent.event).toLowerCase()} events, so nothing was delivered. Register a webhook for it
          above, or turn on one that has it.
        </p>
      ) : (
        <>
          <p>
            Queued for {deliveries.length} {deliveries.length === 1 ? 'webhook' : 'webhooks'}; each delivery’s page shows its attempts as
            they happen:
          </p>
          <ul className="sent-deliveries" aria-label="Deliveries of this event">
            {deliveries.map((d) => (
              <li key={d.delivery_id}>
                <code className="break">{d.url}</code>{' '}
                <Link to={`/webhooks/${d.webhook_uuid}?delivery=${encodeURIComponent(d.delivery_id)}`}>See the delivery</Link>
              </li>
            ))}
          </ul>
        </>
      )}
      <details className="curl">
        <summary>Show the event as the receiver decrypts it</summary>
        <CodeBlock label="The event as the receiver decrypts it" className="code json-block">
          {JSON.stringify(event, null, 2)}
        </CodeBlock>
      </details>
    </section>
  );
}

/** POST /api/service-confirmations/simulate: a realistic confirmation and its event, sent to every subscribed webhook. */
export function TestEventPanel({ organizationUuid }: { organizationUuid: string }) {
  const id = useId();
  const [event, setEvent] = useState<SimulatedEventType>(firstSimulatedEventType);
  const [qrCode, setQrCode] = useState(ANY);
  const [sent, setSent] = useState<{ answer: SimulateResponse; event: SimulatedEventType } | null>(null);
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  // The list is searched on the server, so every QR code can be found, not only the first page.
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  const deferredSearch = useDeferredValue(search);
  const qrCodes = useQuery({
    ...getQuery('/api/qrcodes', {
      query: { organization_uuid: organizationUuid, per_page: QR_PICKER_SIZE, ...(deferredSearch ? { search: deferredSearch } : {}) },
    }),
    placeholderData: keepPreviousData,
  });
  const [chosen, setChosen] = useState<QrCodeChoice | null>(null);
  const matches = qrCodes.data?.items ?? [];
  const options = chosen && !matches.some((qr) => qr.uuid === chosen.uuid) ? [chosen, ...matches] : matches;
  // The QR code capability may not be on this server: then the server picks (or makes) one.
  const noQrCodeApi = qrCodes.error instanceof ApiFailure && qrCodes.error.status === 404;
  const simulate = writeCall('post', '/api/service-confirmations/simulate', {
    body: { organization_uuid: organizationUuid, event, ...(qrCode === ANY ? {} : { qr_code_uuid: qrCode }) },
  });
  const { request } = simulate;
  const send = useApiAction(async () => {
    const answer = await simulate.send();
    setSent({ answer, event });
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSent(null);
    void send.run();
  };

  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Send a test event</h2>
      <p className="muted">
        Makes a realistic, fully filled-in service confirmation and sends its event to every active webhook subscribed to it, exactly as the
        real service would.
      </p>
      <div className="form-row form-row-test">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-event`}>
            Event
          </label>
          <select id={`${id}-event`} value={event} onChange={(e) => setEvent(e.target.value as SimulatedEventType)}>
            {simulatedEventTypes().map((t) => (
              <option key={t} value={t}>
                {eventLabel(t)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-qr`}>
            QR code
          </label>
          <input
            id={`${id}-qr-search`}
            type="search"
            className="qr-picker-search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="Find by name, address or reference"
            aria-label="Find a QR code"
            aria-controls={`${id}-qr`}
          />
          <select
            id={`${id}-qr`}
            value={qrCode}
            onChange={(e) => {
              setQrCode(e.target.value);
              setChosen(options.find((qr) => qr.uuid === e.target.value) ?? null);
            }}
            aria-describedby={`${id}-qr-hint`}
          >
            <option value={ANY}>Any QR code</option>
            {options.map((qr) => (
              <option key={qr.uuid} value={qr.uuid}>
                {qrCodeLabel(qr)}
              </option>
            ))}
          </select>
          {qrCodes.data && (
            <span className="field-hint" role="status">
              {qrCodes.data.total === 0
                ? search
                  ? `No QR code matches “${search}”.`
                  : 'No QR codes yet.'
                : qrCodes.data.total > matches.length
                  ? `Showing ${matches.length} of ${qrCodes.data.total.toLocaleString()}${search ? ` matching “${search}”` : ''}: type to narrow.`
                  : `${countOf(qrCodes.data.total, 'QR code')}${search ? ` match “${search}”` : ''}.`}
            </span>
          )}
          <span id={`${id}-qr-hint`} className="field-hint">
            {noQrCodeApi
              ? 'QR codes cannot be listed on this server yet: the server uses one of your QR codes, or creates a demo site.'
              : 'Any: the server uses one of your QR codes, or creates a demo site when there is none.'}
          </span>
        </div>
        <SubmitButton running={send.running} busyLabel="Sending…" inRow>
          Send test event
        </SubmitButton>
      </div>
      {!noQrCodeApi && <ErrorNotice error={qrCodes.error} onRetry={() => void qrCodes.refetch()} />}
      <ErrorNotice error={send.error} onDismiss={send.clearError} />
      {sent && <SentEvent sent={sent} />}
      <CurlDisclosure request={request} />
    </form>
  );
}
