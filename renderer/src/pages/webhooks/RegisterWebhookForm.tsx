import { writeCall } from '../../api/write-call.ts';
import { type FormEvent, Fragment, useState } from 'react';
import { fieldProblem } from '../../api/describe-error.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { CreatedPanel, SecretField } from '../../components/SecretField.tsx';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Link } from '../../router.tsx';
import { urlHint } from '../../api/webhook-format.ts';
import { type EventType, serviceEventTypes, webhookEvents } from '../../api/webhook-events.ts';
import type { WebhookWithSecret } from '../../api/webhook-types.ts';
import { SubmitButton } from '../../components/FormActions.tsx';
import { TextField } from '../../components/FormField.tsx';
import { SandboxOnlyBadge } from '../../components/SandboxOnlyBadge.tsx';
import { SandboxDiagnosticsCheckbox } from './SandboxDiagnostics.tsx';

/** The registration answer: the only time the secret comes without asking for it. */
export function NewWebhookPanel({ webhook, onDone }: { webhook: WebhookWithSecret; onDone(): void }) {
  return (
    <CreatedPanel
      title="Webhook registered"
      actions={
        <Link to={`/webhooks/${webhook.uuid}`} className="button">
          Open its delivery log
        </Link>
      }
      onDone={onDone}
    >
      <p>
        Deliveries to <code className="break">{webhook.url}</code> are signed and encrypted with this <strong>signing secret</strong>. Your
        receiver needs it to check the <code>X-Service-Signature</code> header and to decrypt the payload. <strong>Copy it now:</strong> it
        is not shown again here; an editor can reveal it later on the webhook’s page.
      </p>
      <SecretField label="Signing secret" secret={webhook.secret} copyLabel="Copy secret" />
    </CreatedPanel>
  );
}

export function RegisterWebhookForm({
  organizationUuid,
  allowHttp,
  onRegistered,
}: {
  organizationUuid: string;
  /** From GET /api/settings; undefined while unknown. */
  allowHttp: boolean | undefined;
  onRegistered(webhook: WebhookWithSecret): void;
}) {
  const [url, setUrl] = useState('');
  // The service's events; the sandbox's own are opt-in.
  const [events, setEvents] = useState<EventType[]>(serviceEventTypes);
  const [diagnostics, setDiagnostics] = useState(false);
  const registerCall = writeCall('post', '/api/webhooks/register', {
    // The service's registration body, plus the sandbox's field only when asked for.
    body: { organization_uuid: organizationUuid, url: url.trim(), events, ...(diagnostics ? { sandbox_diagnostics: true } : {}) },
  });
  const { request } = registerCall;
  const register = useApiAction(async () => {
    const webhook = await registerCall.send();
    setUrl('');
    setEvents(serviceEventTypes());
    setDiagnostics(false);
    onRegistered(webhook);
  });
  const [urlMissing, setUrlMissing] = useState(false);
  const urlProblem = urlMissing
    ? 'Give the address that should receive the events, e.g. http://127.0.0.1:9000/hooks.'
    : fieldProblem(register.error, 'url');
  const eventsProblem = fieldProblem(register.error, 'events');
  const kind = urlHint(url);

  const toggleEvent = (event: EventType, on: boolean) => {
    register.clearError();
    setEvents((current) =>
      on
        ? webhookEvents().flatMap((e) => (e.type === event || current.includes(e.type) ? [e.type] : []))
        : current.filter((e) => e !== event),
    );
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const missing = url.trim() === '';
    setUrlMissing(missing);
    if (missing) {
      register.clearError();
      return;
    }
    void register.run();
  };

  return (
    <form onSubmit={submit} aria-labelledby="register-title" noValidate>
      <h2 id="register-title">Register a webhook</h2>
      <TextField
        id="webhook-url"
        label="URL"
        type="url"
        value={url}
        onChange={(value) => {
          setUrl(value);
          setUrlMissing(false);
          register.clearError();
        }}
        placeholder="http://127.0.0.1:9000/hooks or https://example.com/webhooks"
        spellCheck={false}
        autoComplete="off"
        problem={urlProblem}
        hint={
          <>
            <code>https://</code> to any address. Plain <code>http://</code> only to this machine (<code>127.0.0.1</code>,{' '}
            <code>localhost</code>, <code>[::1]</code>)
            {allowHttp ? ', and to other machines because an admin allowed it in Settings.' : ', unless an admin allows it in Settings.'}{' '}
            Link-local and cloud metadata addresses are always refused. Redirects are not followed: give the final URL.
            {kind === 'remote-http' && allowHttp === false && !urlProblem && (
              <span className="hint-warning">
                {' '}
                This http:// address is not on this machine, so it will be refused: use https://, or ask an admin to allow http webhooks.
              </span>
            )}
          </>
        }
      />
      <fieldset className="fieldset" aria-describedby={eventsProblem ? 'webhook-events-problem' : undefined}>
        <legend className="field-label">Events</legend>
        <div className="checkbox-list">
          {webhookEvents().map(({ type: event, label, description, sandbox_only }) => (
            <label key={event} className="checkbox checkbox-card">
              <input type="checkbox" checked={events.includes(event)} onChange={(e) => toggleEvent(event, e.target.checked)} />
              <span>
                <span className="checkbox-title">
                  {label}
                  {sandbox_only && (
                    <>
                      {' '}
                      <SandboxOnlyBadge />
                    </>
                  )}
                </span>
                <code className="checkbox-code">
                  {/* Breaks after a dot, never inside a name. */}
                  {event.split('.').map((part, i) => (
                    <Fragment key={part}>
                      {i > 0 && (
                        <>
                          .<wbr />
                        </>
                      )}
                      {part}
                    </Fragment>
                  ))}
                </code>
                <span className="field-hint checkbox-hint">{description}</span>
              </span>
            </label>
          ))}
        </div>
        {eventsProblem && (
          <span id="webhook-events-problem" className="field-problem">
            {eventsProblem}
          </span>
        )}
      </fieldset>
      <fieldset className="fieldset">
        <legend className="field-label">Diagnostics</legend>
        <SandboxDiagnosticsCheckbox checked={diagnostics} onChange={setDiagnostics} />
      </fieldset>
      <ErrorNotice error={register.error} onDismiss={register.clearError} fieldsShown={['url', 'events']} />
      <div className="form-actions">
        <SubmitButton running={register.running} busyLabel="Registering…">
          Register webhook
        </SubmitButton>
      </div>
      <CurlDisclosure request={request} />
    </form>
  );
}
