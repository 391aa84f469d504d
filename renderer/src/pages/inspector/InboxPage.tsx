import { type ReactNode, useState } from 'react';
import './inspector.css';
import { type ApiRequest, call } from '../../api/client.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { getQuery, getRequest } from '../../api/get-query.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSignedIn } from '../../auth/session-store.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Loading, PageLoading } from '../../components/QueryState.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { Link, navigate, useSearchParams } from '../../router.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ExportPanel } from './ExportPanel.tsx';
import { draftFrom, InboxForm, inboxBody, type InboxDraft } from './InboxForm.tsx';
import { droppedSummary, type Inbox, inboxPath, type RegisteredWebhook } from '../../api/inspector-types.ts';
import {
  eventLabel,
  firstSimulatedEventType,
  serviceEventTypes,
  type SimulatedEventType,
  simulatedEventTypes,
} from '../../api/webhook-events.ts';
import { MessageList } from './MessageList.tsx';
import { RulesEditor } from './RulesEditor.tsx';
import { rulesSummary } from './rules-draft.ts';
import { Panel } from '../../components/Panel.tsx';
import { ActionButton, CancelButton } from '../../components/FormActions.tsx';
import { countOf } from '../../../../common/count-words.ts';

/** With messages already there, the register and test-event actions fold away under the URL. */
function ReceivePanel({ inbox }: { inbox: Inbox }) {
  const [compact] = useState(inbox.message_count > 0);
  const { session } = useSignedIn();
  const registerRequest: ApiRequest = {
    method: 'POST',
    path: '/api/webhooks/register',
    body: { organization_uuid: session.organization_uuid, url: inbox.url, events: serviceEventTypes() },
  };
  const [webhook, setWebhook] = useState<RegisteredWebhook | null>(null);
  const register = useApiAction(async () => {
    setWebhook(await call<RegisteredWebhook>(registerRequest));
  });
  const [event, setEvent] = useState<SimulatedEventType>(firstSimulatedEventType);
  const simulateRequest: ApiRequest = {
    method: 'POST',
    path: '/api/service-confirmations/simulate',
    body: { organization_uuid: session.organization_uuid, event },
  };
  const [sent, setSent] = useState<string | null>(null);
  const simulate = useApiAction(async () => {
    setSent(null);
    await call(simulateRequest);
    setSent(eventLabel(event));
  });

  return (
    <Panel title="Receive deliveries">
      <p className="muted">
        Deliveries sent to this URL are stored, decrypted and verified. It needs no Authorization header, so any webhook sender (this app,
        the real service through a tunnel, your own scripts) can post to it.
      </p>
      <div className="url-row">
        <figure className="labelled-code" aria-label="Inbox URL">
          <code className="url-box">{inbox.url}</code>
        </figure>
        <CopyButton text={inbox.url} label="Copy URL" />
      </div>
      <Fold folded={compact}>
        <ActionBlock
          action={register}
          request={registerRequest}
          curlLabel="Show curl for registering"
          done={
            webhook && (
              <>
                Webhook registered ({webhook.uuid.slice(0, 8)}…, events: {webhook.events.map(eventLabel).join(', ')}). Every service
                confirmation event now arrives here; messages stored before it can be checked with “Verify again” below.
              </>
            )
          }
        >
          <ActionButton action={register} busyLabel="Registering…">
            Register a webhook to this inbox
          </ActionButton>
          <span className="muted small">
            Registers a webhook of your organization at this URL for all three events; its secret is then known here, so signatures are
            checked.
          </span>
        </ActionBlock>
        <ActionBlock
          action={simulate}
          request={simulateRequest}
          curlLabel="Show curl for the test event"
          done={sent && <>{sent} event sent to the subscribed webhooks.</>}
          below={
            <p className="muted small">
              Makes a realistic service confirmation and sends its event to every webhook subscribed to it; with a webhook registered here,
              it appears below in a moment.
            </p>
          }
        >
          <SelectField label="Event" value={event} onChange={(v) => setEvent(v as SimulatedEventType)}>
            {simulatedEventTypes().map((t) => (
              <option key={t} value={t}>
                {eventLabel(t)}
              </option>
            ))}
          </SelectField>
          <ActionButton action={simulate} busyLabel="Sending…">
            Send a test event
          </ActionButton>
        </ActionBlock>
      </Fold>
    </Panel>
  );
}

/** An action of the inbox: its button row, then its error, what it did, and its curl. */
function ActionBlock({
  action,
  request,
  curlLabel,
  done,
  below,
  children,
}: {
  action: { error: unknown; clearError(): void };
  request: ApiRequest;
  curlLabel: string;
  /** What the action did, once it has. */
  done: ReactNode;
  /** Text under the row. */
  below?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="action-block">
      <div className="action-row">{children}</div>
      {below}
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
      {done && (
        <p className="notice notice-success" role="status">
          {done}
        </p>
      )}
      <CurlDisclosure request={request} label={curlLabel} />
    </div>
  );
}

function Fold({ folded, children }: { folded: boolean; children: ReactNode }) {
  if (!folded) return <>{children}</>;
  return (
    <details className="fold">
      <summary>Register a webhook to this inbox, or send a test event</summary>
      {children}
    </details>
  );
}

function EditPanel({ inbox, onSaved, onCancel }: { inbox: Inbox; onSaved(inbox: Inbox): void; onCancel(): void }) {
  // With its secrets (editor), so the form starts from what is stored.
  const full = useQuery(getQuery('/api/inboxes/uuid/{uuid}', { path: { uuid: inbox.uuid }, query: { include_secrets: 'true' } }));
  const [draft, setDraft] = useState<InboxDraft | null>(null);
  const current = draft ?? (full.data ? draftFrom(full.data) : null);
  const request: ApiRequest = { method: 'PATCH', path: inboxPath(inbox.uuid), body: current ? inboxBody(current) : {} };
  const save = useApiAction(async () => onSaved(await call<Inbox>(request)));
  return (
    <section className="panel">
      {full.isFetching && !full.data && <Loading>Loading the inbox settings…</Loading>}
      <ErrorNotice error={full.error} onRetry={() => void full.refetch()} />
      {current && (
        <InboxForm
          title="Edit the inbox"
          draft={current}
          onChange={setDraft}
          submitLabel="Save changes"
          action={save}
          request={request}
          onCancel={onCancel}
        />
      )}
      {!current && (
        <div className="row-actions row-actions-start">
          <CancelButton onCancel={onCancel} />
        </div>
      )}
    </section>
  );
}

function ReverifyButton({ inbox, onDone }: { inbox: Inbox; onDone(): void }) {
  const request: ApiRequest = { method: 'POST', path: `${inboxPath(inbox.uuid)}/reverify` };
  const [result, setResult] = useState<{ checked: number; changed: number } | null>(null);
  const reverify = useApiAction(async () => {
    setResult(await call<{ checked: number; changed: number }>(request));
    onDone();
  });
  return (
    <ActionBlock
      action={reverify}
      request={request}
      curlLabel="Show curl for verifying again"
      done={
        result && (
          <>
            Checked {countOf(result.checked, 'message')};{' '}
            {result.changed === 0 ? 'no verdict changed' : `${result.changed.toLocaleString()} changed`}.
          </>
        )
      }
    >
      <ActionButton action={reverify} className="button button-small" busyLabel="Checking…">
        Verify again
      </ActionButton>
      <span className="muted small">
        After adding a secret or registering a webhook here: judges every stored message again with the secrets known now.
      </span>
    </ActionBlock>
  );
}

export function InboxPage({ uuid }: { uuid: string }) {
  const [params, setParams] = useSearchParams();
  // Arrivals update the count (live/live-queries.ts).
  const inboxQuery = getQuery('/api/inboxes/uuid/{uuid}', { path: { uuid } });
  const request = getRequest('/api/inboxes/uuid/{uuid}', { path: { uuid } });
  const query = useQuery(inboxQuery);
  const { data: inbox } = query;
  const queryClient = useQueryClient();
  const setData = (update: (current: Inbox | undefined) => Inbox | undefined) => queryClient.setQueryData(inboxQuery.queryKey, update);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const [confirm, setConfirm] = useState<'delete' | 'clear' | null>(null);
  const [listVersion, setListVersion] = useState(0);
  // The edit form may change the rule for every request: the rules editor starts again from the saved rules.
  const [rulesVersion, setRulesVersion] = useState(0);
  const back = <Link to="/inspector">← All inboxes</Link>;

  if (!inbox) {
    return <PageLoading title="Inbox" back={back} query={query} loading="Loading the inbox…" />;
  }

  const rules = rulesSummary(inbox.rules);
  return (
    <>
      <PageHeader
        title={inbox.name}
        back={back}
        description={
          <>
            {countOf(inbox.message_count, 'message')}
            {droppedSummary(inbox) ? ` · ${droppedSummary(inbox)}` : ''} · {rules ? `Answers: ${rules}` : 'answers normally'}
            {inbox.forward_to ? ` · forwards to ${inbox.forward_to}` : ''}
            {inbox.secret_count > 0 ? ` · ${inbox.secret_count} ${inbox.secret_count === 1 ? 'secret' : 'secrets'} of its own` : ''}
          </>
        }
        actions={
          <>
            <button
              type="button"
              className="button"
              onClick={() => {
                setEditing(true);
                setSaved(false);
              }}
              disabled={editing}
            >
              Edit
            </button>
            <button type="button" className="button button-danger-quiet" onClick={() => setConfirm('delete')}>
              Delete
            </button>
          </>
        }
      />
      {params.get('created') && (
        <div className="notice notice-success" role="status">
          <span>Inbox created. Register a webhook to its URL below, or paste the URL wherever a webhook URL is asked for.</span>
          <button
            type="button"
            className="button button-small button-quiet"
            onClick={() => setParams({ created: null }, { replace: true })}
          >
            Dismiss
          </button>
        </div>
      )}
      {saved && (
        <p className="notice notice-success" role="status">
          Changes saved. They apply to the next delivery.
        </p>
      )}
      {editing && (
        <EditPanel
          inbox={inbox}
          onCancel={() => setEditing(false)}
          onSaved={(next) => {
            setData(() => next);
            setEditing(false);
            setSaved(true);
            setRulesVersion((v) => v + 1);
          }}
        />
      )}
      <ReceivePanel inbox={inbox} />
      <Panel
        title="Messages"
        actions={
          <button
            type="button"
            className="button button-small button-danger-quiet"
            onClick={() => setConfirm('clear')}
            disabled={inbox.message_count === 0}
          >
            Delete all messages
          </button>
        }
      >
        <MessageList key={listVersion} inbox={inbox} />
        <ReverifyButton inbox={inbox} onDone={() => setListVersion((v) => v + 1)} />
      </Panel>
      <RulesEditor key={rulesVersion} inbox={inbox} onSaved={(next) => setData(() => next)} />
      <ExportPanel inbox={inbox} />
      <CurlDisclosure request={request} label="Show curl for this inbox" />
      {confirm === 'delete' && (
        <ConfirmDialog
          title={`Delete the inbox “${inbox.name}”?`}
          confirmLabel="Delete inbox"
          request={{ method: 'DELETE', path: inboxPath(inbox.uuid) }}
          onDone={() => {
            // The inbox list loads again rather than show the deleted inbox until then.
            queryClient.removeQueries({ queryKey: ['/api/inboxes'] });
            navigate('/inspector');
          }}
          onCancel={() => setConfirm(null)}
        >
          <p>
            Its {inbox.message_count.toLocaleString()} {inbox.message_count === 1 ? 'message goes' : 'messages go'} with it, and deliveries
            to <code>{inbox.url}</code> will get 404. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
      {confirm === 'clear' && (
        <ConfirmDialog
          title="Delete all messages?"
          confirmLabel="Delete all messages"
          request={{ method: 'DELETE', path: `${inboxPath(inbox.uuid)}/messages` }}
          onDone={() => {
            setConfirm(null);
            setData((current) => current && { ...current, message_count: 0 });
            setListVersion((v) => v + 1);
          }}
          onCancel={() => setConfirm(null)}
        >
          <p>
            The inbox keeps its URL and settings; its {inbox.message_count.toLocaleString()} stored messages are deleted. This cannot be
            undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
