import { type FormEvent, useState } from 'react';
import './inspector.css';
import { type ApiRequest, call, download } from '../../api/client.ts';
import { fieldProblem } from '../../api/describe-error.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { getQuery, getRequest } from '../../api/get-query.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { messageQuery, withRelay } from '../../api/message-query.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { JsonTree } from '../../components/JsonTree.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoading } from '../../components/QueryState.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { Link, navigate } from '../../router.tsx';
import { formatDateTime } from '../../components/date-time.ts';
import { formatReceived, type Inbox, type Message, messagePath, type Relay } from '../../api/inspector-types.ts';
import { eventLabel } from '../../api/webhook-events.ts';
import { answerText } from './MessageList.tsx';
import { DecryptionBadge, DuplicateBadge, HintList, SignatureBadge, signatureExplanation } from '../../components/Verdicts.tsx';
import { Table } from '../../components/Table.tsx';
import { Panel } from '../../components/Panel.tsx';
import { ActionButton, SubmitButton } from '../../components/FormActions.tsx';
import { FormField } from '../../components/FormField.tsx';
import { HeadersTable } from './HeadersTable.tsx';
import { ResealPanel } from './ResealPanel.tsx';
import { Facts } from '../../components/Facts.tsx';
import { DeliveryAttemptLink } from './delivery-attempt.tsx';
import { CodeBlock } from '../../components/CodeBlock.tsx';

function VerdictsPanel({ message, inboxUuid }: { message: Message; inboxUuid: string }) {
  return (
    <Panel title="Verdicts">
      <div className="verdicts">
        <div className="verdict">
          <DecryptionBadge decrypted={message.decrypted} />
          <p>
            {message.decrypted
              ? 'The payload decrypted with the key taken from X-Service-Signature.'
              : (message.decryption_error ?? 'The payload could not be decrypted.')}
            {message.decryption_problem && <code className="hint-code">{message.decryption_problem}</code>}
          </p>
        </div>
        <div className="verdict">
          <SignatureBadge status={message.signature_status} />
          <p>
            {signatureExplanation(message.signature_status)}
            {message.verified_with && <> Verified with {message.verified_with}.</>}
          </p>
        </div>
      </div>
      {message.duplicate_of && (
        <p className="notice notice-warning">
          <span>
            <DuplicateBadge by={message.duplicate_by} /> Same{' '}
            {message.duplicate_by === 'delivery_id'
              ? 'delivery id'
              : message.duplicate_by === 'signature'
                ? 'signature (the same plaintext)'
                : 'event id'}{' '}
            as <Link to={`/inspector/${inboxUuid}/messages/${message.duplicate_of}`}>an earlier message</Link>: a retry or a resend.
            Receivers should process it once.
          </span>
        </p>
      )}
      <HintList hints={message.hints} />
      <Facts
        facts={{
          Received: formatDateTime(message.received_on),
          Request: (
            <code>
              {message.method} {message.path}
            </code>
          ),
          Answered: (
            <>
              {answerText(message.answer)}
              {message.answer.after_ms !== null && ` after ${message.answer.after_ms} ms`}
              {message.answer.rule && message.answer.kind !== 'fault_status' && message.answer.kind !== 'dropped'
                ? ` (by rule ${message.answer.rule})`
                : ''}
            </>
          ),
          'Delivery id': <DeliveryAttemptLink deliveryId={message.delivery_id} attempt={message.attempt ?? null} />,
          'Event id': message.event_id ?? '—',
        }}
      />
    </Panel>
  );
}

function RawBody({ message, inboxUuid }: { message: Message; inboxUuid: string }) {
  const request: ApiRequest = { method: 'GET', path: `${messagePath(inboxUuid, message.uuid)}/body` };
  const save = useApiAction(() => download(request, `message-${message.uuid}.body`));
  return (
    <section className="panel" aria-labelledby="body-title">
      <div className="panel-header">
        <h2 id="body-title">Raw body</h2>
        <div className="row-actions">
          <CopyButton text={message.body} label="Copy body" />
          <ActionButton action={save} className="button button-small">
            Download the exact bytes
          </ActionButton>
        </div>
      </div>
      <p className="muted small">
        {message.body_size.toLocaleString()} bytes{message.body_truncated ? ', cut off: only the first 1 MB was kept' : ''}
        {message.body_base64 !== null
          ? '. Not valid UTF-8: shown as text with replacement characters; the download has the exact bytes.'
          : '.'}
      </p>
      <ErrorNotice error={save.error} onDismiss={save.clearError} />
      {message.body === '' ? <p className="muted">The body is empty.</p> : <CodeBlock label="Body as received">{message.body}</CodeBlock>}
      <CurlDisclosure request={request} download label="Show curl for the exact bytes" />
    </section>
  );
}

function RelayTable({ relays }: { relays: Relay[] }) {
  if (relays.length === 0) return <p className="muted">Not forwarded or replayed yet.</p>;
  return (
    <Table label="Forwards and replays" headings={['When', 'Kind', 'URL', 'Answer', 'Response']}>
      {relays.map((r) => (
        <tr key={r.uuid}>
          <td className="nowrap" title={formatDateTime(r.requested_on)}>
            {formatReceived(r.requested_on)}
          </td>
          <td>{r.kind === 'forward' ? 'Forward' : 'Replay'}</td>
          <td className="truncate" title={r.url}>
            {r.url}
          </td>
          <td className="nowrap">
            {r.status_code !== null ? (
              <span className={`badge ${r.status_code < 300 ? 'badge-completed' : 'badge-failed'}`}>{r.status_code}</span>
            ) : (
              <span className="badge badge-failed">no answer</span>
            )}
            {r.duration_ms !== null && <span className="muted small"> {r.duration_ms} ms</span>}
          </td>
          <td className="results-cell">
            <span className={`clamp-2 small ${r.error ? 'text-error' : ''}`} title={r.error ?? r.response_excerpt ?? ''}>
              {r.error ?? r.response_excerpt ?? <span className="muted">empty</span>}
            </span>
          </td>
        </tr>
      ))}
    </Table>
  );
}

function ReplayPanel({ message, inbox, onRelay }: { message: Message; inbox: Inbox | undefined; onRelay(relay: Relay): void }) {
  const [url, setUrl] = useState<string | null>(null);
  const target = url ?? inbox?.forward_to ?? '';
  const request: ApiRequest = {
    method: 'POST',
    path: `${messagePath(message.inbox_uuid, message.uuid)}/replay`,
    body: target.trim() === '' ? {} : { url: target.trim() },
  };
  const [result, setResult] = useState<Relay | null>(null);
  const replay = useApiAction(async () => {
    setResult(null);
    const relay = await call<Relay>(request);
    setResult(relay);
    onRelay(relay);
  });
  const problem = fieldProblem(replay.error, 'url');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void replay.run();
  };
  return (
    <Panel title="Replay and forward">
      <p className="muted">
        Sends this message again, body byte for byte and the headers as received, to your app.{' '}
        {inbox?.forward_to ? (
          <>
            This inbox also forwards every new message to <code>{inbox.forward_to}</code>.
          </>
        ) : (
          'Set “Forward to” on the inbox to relay every new message automatically.'
        )}
      </p>
      <form className="replay-form" onSubmit={submit} noValidate>
        <FormField
          id="replay-url"
          label="Replay to URL"
          problem={problem}
          hintOrProblem
          hint="https anywhere; http only to this machine unless the settings allow it. Redirects are not followed; 15 s timeout."
        >
          {(control) => (
            <div className="secret-row">
              <input
                {...control}
                value={target}
                onChange={(e) => setUrl(e.target.value)}
                placeholder="http://127.0.0.1:3000/webhooks"
                spellCheck={false}
              />
              <SubmitButton running={replay.running} busyLabel="Sending…">
                Replay
              </SubmitButton>
            </div>
          )}
        </FormField>
      </form>
      <ErrorNotice error={replay.error} onDismiss={replay.clearError} fieldsShown={['url']} />
      {result && (
        <p
          className={`notice ${result.status_code !== null && result.status_code < 300 ? 'notice-success' : 'notice-error'}`}
          role="status"
        >
          {result.status_code !== null
            ? `Your app answered ${result.status_code} in ${result.duration_ms ?? '?'} ms.`
            : `No answer: ${result.error ?? 'unknown reason'}.`}
        </p>
      )}
      <CurlDisclosure request={request} />
      <h3 className="subheading">Relay log</h3>
      <RelayTable relays={message.relays} />
    </Panel>
  );
}

function CompareWith({ message, inboxUuid }: { message: Message; inboxUuid: string }) {
  const { session } = useSignedIn();
  const others = useQuery(
    getQuery('/api/inboxes/uuid/{uuid}/messages', {
      path: { uuid: inboxUuid },
      query: { organization_uuid: session.organization_uuid, per_page: 100 },
    }),
  );
  const choices = (others.data?.items ?? []).filter((m) => m.uuid !== message.uuid);
  const [other, setOther] = useState('');
  const pick = other || choices[0]?.uuid || '';
  return (
    <Panel title="Compare with another message">
      <ErrorNotice error={others.error} onRetry={() => void others.refetch()} />
      {others.data && choices.length === 0 ? (
        <p className="muted">This is the only message of the inbox so far.</p>
      ) : (
        <div className="toolbar">
          <SelectField label="Compare with" value={pick} onChange={setOther}>
            {choices.map((m) => (
              <option key={m.uuid} value={m.uuid}>
                {formatReceived(m.received_on)} · {m.event_type ? eventLabel(m.event_type) : m.method}
                {m.uuid === message.duplicate_of ? ' (the original)' : ''}
              </option>
            ))}
          </SelectField>
          <button
            type="button"
            className="button"
            disabled={pick === ''}
            onClick={() => navigate(`/inspector/${inboxUuid}/compare?a=${message.uuid}&b=${pick}`)}
          >
            Compare side by side
          </button>
        </div>
      )}
    </Panel>
  );
}

export function MessagePage({ inboxUuid, messageUuid }: { inboxUuid: string; messageUuid: string }) {
  // Relays of it arrive by live event too (live/live-queries.ts).
  const messageKey = messageQuery(inboxUuid, messageUuid);
  const request = getRequest('/api/inboxes/uuid/{uuid}/messages/{message_uuid}', messageKey.queryKey[1]);
  const query = useQuery(messageKey);
  const inbox = useQuery(getQuery('/api/inboxes/uuid/{uuid}', { path: { uuid: inboxUuid } }));
  const { data: message } = query;
  const queryClient = useQueryClient();
  const addRelay = (relay: Relay) => queryClient.setQueryData(messageKey.queryKey, (current) => current && withRelay(current, relay));
  const back = <Link to={`/inspector/${inboxUuid}`}>← {inbox.data?.name ?? 'Inbox'}</Link>;

  if (!message) {
    return <PageLoading title="Message" back={back} query={query} loading="Loading the message…" />;
  }

  return (
    <>
      <PageHeader
        title={message.event_type ? `${eventLabel(message.event_type)} message` : `${message.method} request`}
        back={back}
        description={`Received ${formatDateTime(message.received_on)} · message ${message.uuid}`}
        actions={
          <div className="badge-row">
            <DecryptionBadge decrypted={message.decrypted} reason={message.decryption_error} />
            <SignatureBadge status={message.signature_status} />
          </div>
        }
      />
      <VerdictsPanel message={message} inboxUuid={inboxUuid} />
      <Panel title="Decrypted JSON">
        {message.envelope !== null && message.envelope !== undefined ? (
          <JsonTree
            value={message.envelope}
            label="Decrypted envelope"
            actions={<CopyButton text={JSON.stringify(message.envelope, null, 2)} label="Copy JSON" className="button-quiet" />}
          />
        ) : (
          <p className="muted">{message.decrypted ? 'The plaintext is not JSON.' : 'Nothing was decrypted; see the verdicts above.'}</p>
        )}
      </Panel>
      <Panel title="Headers">
        <HeadersTable headers={message.headers} label="Request headers" />
      </Panel>
      <RawBody message={message} inboxUuid={inboxUuid} />
      <ResealPanel inboxUuid={inboxUuid} messageUuid={message.uuid} />
      <ReplayPanel message={message} inbox={inbox.data} onRelay={addRelay} />
      <CompareWith message={message} inboxUuid={inboxUuid} />
      <CurlDisclosure request={request} label="Show curl for this message" />
    </>
  );
}
