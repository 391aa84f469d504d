import './attempt-view.css';
import { CopyButton } from '../../components/CopyButton.tsx';
import { HeaderTable } from '../../components/HeaderTable.tsx';
import { Link } from '../../router.tsx';
import { formatDateTime } from '../../components/date-time.ts';
import { formatDuration } from '../../api/webhook-format.ts';
import type { DeliveryAttempt } from '../../api/webhook-types.ts';
import { CodeBlock } from '../../components/CodeBlock.tsx';

const ATTEMPT_HEADERS = 'table table-compact attempt-headers';

function Body({ label, text, empty }: { label: string; text: string | null; empty: string }) {
  if (text === null || text === '') return <p className="muted">{empty}</p>;
  return (
    <>
      <div className="attempt-body-actions">
        <CopyButton text={text} label="Copy body" className="button-small button-quiet" />
      </div>
      <CodeBlock label={label} className="code-block attempt-body">
        {text}
      </CodeBlock>
    </>
  );
}

/**
 * One attempt in full, like a payment provider's event page: the request as sent on the left, the
 * answer as received on the right (status, headers, body), and the inspector message it became.
 */
export function AttemptView({ attempt, url, inboxUuid }: { attempt: DeliveryAttempt; url: string; inboxUuid: string | null }) {
  const n = attempt.attempt;
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  const inFlight = attempt.duration_ms === null && attempt.status_code === null && attempt.error === null;
  return (
    <section className="attempt-view" id={`attempt-${n}`} aria-label={`Attempt ${n}`}>
      <header className="attempt-view-header">
        <h4>Attempt {n}</h4>
        <span className="muted">
          {formatDateTime(attempt.attempted_on)} · {formatDuration(attempt.duration_ms)}
        </span>
        {inboxUuid && attempt.inbox_message_uuid && (
          <Link to={`/inspector/${encodeURIComponent(inboxUuid)}/messages/${encodeURIComponent(attempt.inbox_message_uuid)}`}>
            Open the inbox message of attempt {n}
          </Link>
        )}
      </header>
      <div className="attempt-sides">
        <section className="attempt-side" aria-label={`Request of attempt ${n}`}>
          <h5>Request</h5>
          {attempt.request_headers === null ? (
            <p className="muted">Nothing was sent{attempt.error ? `: ${attempt.error}` : '.'}</p>
          ) : (
            <>
              <HeaderTable
                label={`Request headers of attempt ${n}`}
                first={['POST', url]}
                headers={attempt.request_headers}
                className={ATTEMPT_HEADERS}
              />
              <Body label={`Request body of attempt ${n}`} text={attempt.request_body} empty="Empty body." />
            </>
          )}
        </section>
        <section className="attempt-side" aria-label={`Response of attempt ${n}`}>
          <h5>Response</h5>
          {inFlight ? (
            <p className="muted">Sending…</p>
          ) : attempt.status_code === null ? (
            <p className="text-error">No answer. {attempt.error}</p>
          ) : (
            <>
              <p>
                <span className={`status-code ${ok ? 'status-code-ok' : 'status-code-bad'}`}>{attempt.status_code}</span>{' '}
                {attempt.error && <span className="text-error">{attempt.error}</span>}
              </p>
              {attempt.response_headers ? (
                <HeaderTable label={`Response headers of attempt ${n}`} headers={attempt.response_headers} className={ATTEMPT_HEADERS} />
              ) : (
                <p className="muted">The headers of this answer were not recorded (an attempt from before they were kept).</p>
              )}
              <Body
                label={`Response body of attempt ${n}`}
                text={attempt.response_body ?? attempt.response_excerpt}
                empty="The answer had an empty body."
              />
              {attempt.response_body_truncated && <p className="muted small">Only the first 64 KiB of the answer were read and kept.</p>}
            </>
          )}
        </section>
      </div>
    </section>
  );
}
