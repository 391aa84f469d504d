import { useEffect, useRef, useState } from 'react';
import { type ApiRequest, call } from '../../api/client.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDateTime } from '../../components/date-time.ts';
import { AttemptView } from './AttemptView.tsx';
import { SentRequest } from './SentRequest.tsx';
import { webhookPath } from '../../api/webhook-path.ts';
import { deliveryStatusLabels, formatDuration, untilText } from '../../api/webhook-format.ts';
import { eventLabel } from '../../api/webhook-events.ts';
import type { Delivery, DeliveryAttempt } from '../../api/webhook-types.ts';
import { Table } from '../../components/Table.tsx';

const timeOnly = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' });

function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toDateString() === new Date().toDateString() ? timeOnly.format(date) : formatDateTime(iso);
}

function AttemptRow({ attempt, shown, onShow }: { attempt: DeliveryAttempt; shown: boolean; onShow(): void }) {
  const inFlight = attempt.duration_ms === null && attempt.status_code === null && attempt.error === null;
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  return (
    <tr className={shown ? 'attempt-row-shown' : undefined}>
      <td className="num">
        <button
          type="button"
          className="button button-small"
          aria-pressed={shown}
          aria-label={`Show attempt ${attempt.attempt} in full`}
          onClick={onShow}
        >
          {attempt.attempt}
        </button>
      </td>
      <td className="nowrap" title={formatDateTime(attempt.attempted_on)}>
        {formatTime(attempt.attempted_on)}
      </td>
      <td>
        {inFlight ? (
          <span className="muted">Sending…</span>
        ) : attempt.status_code === null ? (
          <span className="status-code status-code-bad">no answer</span>
        ) : (
          <span className={`status-code ${ok ? 'status-code-ok' : 'status-code-bad'}`}>{attempt.status_code}</span>
        )}
      </td>
      <td className="nowrap num">{formatDuration(attempt.duration_ms)}</td>
      <td className="attempt-answer">
        {attempt.error && <span className="text-error attempt-error">{attempt.error}</span>}
        {attempt.response_excerpt ? (
          <code className="response-excerpt">{attempt.response_excerpt}</code>
        ) : (
          !attempt.error && !inFlight && <span className="muted">empty body</span>
        )}
      </td>
    </tr>
  );
}

export function DeliveryCard({
  delivery,
  webhookUrl,
  webhookActive,
  canEdit,
  highlighted,
  now,
  onRedelivered,
  initialAttempt,
}: {
  delivery: Delivery;
  /** Where the deliveries are sent (shown with what was sent). */
  webhookUrl: string;
  webhookActive: boolean;
  canEdit: boolean;
  highlighted: boolean;
  now: number;
  onRedelivered(delivery: Delivery): void;
  /** The attempt shown in full at first (a link from the inspector); default the latest. */
  initialAttempt?: number;
}) {
  const card = useRef<HTMLElement>(null);
  useEffect(() => {
    if (highlighted) card.current?.scrollIntoView({ block: 'center' });
  }, [highlighted]);
  const request: ApiRequest = {
    method: 'POST',
    path: `${webhookPath(delivery.webhook_uuid)}/deliveries/${encodeURIComponent(delivery.delivery_id)}/redeliver`,
  };
  const redeliver = useApiAction(async () => onRedelivered(await call<Delivery>(request)));
  const attempts = [...delivery.attempts].sort((a, b) => b.attempt - a.attempt);
  const [picked, setPicked] = useState<number | undefined>(initialAttempt);
  const shown = attempts.find((a) => a.attempt === picked) ?? attempts[0];
  return (
    <article ref={card} className={`delivery ${highlighted ? 'delivery-highlighted' : ''}`} aria-label={`Delivery ${delivery.delivery_id}`}>
      <header className="delivery-header">
        <h3 className="delivery-title">
          <span className={`badge badge-delivery-${delivery.status}`}>{deliveryStatusLabels[delivery.status]}</span>
          <strong>{eventLabel(delivery.event_type)}</strong>
          <span className="muted" title={formatDateTime(delivery.created_on)}>
            {formatTime(delivery.created_on)}
          </span>
          <span className="muted">
            · {delivery.attempt_count} {delivery.attempt_count === 1 ? 'attempt' : 'attempts'}
          </span>
        </h3>
        {canEdit && (
          <button
            type="button"
            className="button button-small"
            onClick={() => void redeliver.run()}
            disabled={redeliver.running || !webhookActive}
            title={webhookActive ? 'Send it again now: same delivery id, next attempt number' : 'Turn the webhook on to redeliver'}
          >
            {redeliver.running ? 'Redelivering…' : 'Redeliver'}
          </button>
        )}
      </header>
      <dl className="delivery-ids">
        {[
          ['Delivery id', delivery.delivery_id],
          ['Event id', delivery.event_id],
        ].map(([label, id]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <code>{id}</code>
            </dd>
          </div>
        ))}
        {delivery.status === 'pending' && delivery.next_attempt_on && (
          <div>
            <dt>Next attempt</dt>
            <dd>
              {formatTime(delivery.next_attempt_on)} ({untilText(delivery.next_attempt_on, now)})
            </dd>
          </div>
        )}
      </dl>
      {delivery.status_reason && (
        <p className={delivery.status === 'failed' ? 'text-error delivery-reason' : 'delivery-reason'}>{delivery.status_reason}</p>
      )}
      {attempts.length > 0 ? (
        <Table
          label={`Attempts of delivery ${delivery.delivery_id}`}
          headings={['Attempt', 'Time', 'Status', 'Duration', 'Answer or error']}
          className="table table-compact"
        >
          {attempts.map((a) => (
            <AttemptRow key={a.attempt} attempt={a} shown={a === shown} onShow={() => setPicked(a.attempt)} />
          ))}
        </Table>
      ) : (
        <p className="muted">No attempt yet: the first goes out in a moment.</p>
      )}
      {shown && <AttemptView attempt={shown} url={webhookUrl} inboxUuid={delivery.inbox_uuid} />}
      <SentRequest delivery={delivery} url={webhookUrl} />
      <ErrorNotice error={redeliver.error} onDismiss={redeliver.clearError} />
      {canEdit && <CurlDisclosure request={request} label="Show curl to redeliver" />}
    </article>
  );
}
