import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { getQuery } from '../../api/get-query.ts';
import { fieldProblem } from '../../api/describe-error.ts';
import type { Schemas } from '../../api/types.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { writeCall } from '../../api/write-call.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SubmitButton } from '../../components/FormActions.tsx';
import { FormField, TextField } from '../../components/FormField.tsx';
import { Panel } from '../../components/Panel.tsx';
import { Link } from '../../router.tsx';
import { HeadersTable } from './HeadersTable.tsx';
import { checkJsonObject, editableJson } from './json-check.ts';
import { CodeBlock } from '../../components/CodeBlock.tsx';

type Options = Schemas['ResendOptions'];
type Result = Schemas['ResendResult'];
type VariantId = Schemas['ResendVariant']['id'];

const TYPED = 'typed';

function secretWording(secret: Options['secrets'][number]): string {
  const what =
    secret.source === 'webhook' ? `The secret of ${secret.label}, registered in this app` : `Kept on this inbox (${secret.label})`;
  return secret.verified_message ? `${what}: it verified this message` : what;
}

/** The last send: what the target answered, and for an inbox of this server the message it became. */
function ResendAnswer({ result, inboxUuid }: { result: Result; inboxUuid: string }) {
  const ok = result.answer.status_code < 300;
  return (
    <section className="resend-answer" aria-label="Answer to the last send">
      <p className={`notice ${ok ? 'notice-success' : 'notice-error'}`} role="status">
        <span>
          {result.variant ? `Broken variant “${result.variant}”` : 'Re-sealed message'} sent to <code>{result.target_url}</code>, sealed
          with {result.secret.label}: answered <strong>{result.answer.status_code}</strong> in {result.answer.duration_ms} ms.{' '}
          {result.inbox_message_uuid && (
            <Link to={`/inspector/${inboxUuid}/messages/${result.inbox_message_uuid}`}>Open the new message</Link>
          )}
        </span>
      </p>
      <p className="small">
        The doctor on the bytes sent: <span className="verdict-label">{result.verdict.label}</span>
      </p>
      <details>
        <summary>Answer headers and body</summary>
        <HeadersTable headers={result.answer.headers} label="Answer headers" />
        <CodeBlock label="Answer body (first 2 KB)">{result.answer.body_excerpt ?? '(empty)'}</CodeBlock>
      </details>
      <details>
        <summary>What was sent</summary>
        <HeadersTable headers={result.sent.headers} label="Headers sent" />
        <CodeBlock label="Body sent">{result.sent.body}</CodeBlock>
      </details>
    </section>
  );
}

function ResealForm({ options, inboxUuid, messageUuid }: { options: Options; inboxUuid: string; messageUuid: string }) {
  const [text, setText] = useState(() => editableJson(options.plaintext));
  const [secretChoice, setSecretChoice] = useState(options.default_secret_label ?? TYPED);
  const [typedSecret, setTypedSecret] = useState('');
  const [targetUrl, setTargetUrl] = useState(options.target_url);
  const [variant, setVariant] = useState<VariantId | ''>('');
  const [result, setResult] = useState<Result | null>(null);
  const editor = useRef<HTMLTextAreaElement>(null);
  const jsonCheck = checkJsonObject(text);

  const secret = secretChoice === TYPED ? { secret: typedSecret } : { secret_label: secretChoice };
  const target = targetUrl.trim() === '' || targetUrl.trim() === options.target_url ? {} : { target_url: targetUrl.trim() };
  const callFor = (chosen: VariantId | '') =>
    writeCall('post', '/api/inboxes/uuid/{uuid}/messages/{message_uuid}/resend', {
      params: { path: { uuid: inboxUuid, message_uuid: messageUuid } },
      body: { plaintext: text, ...secret, ...target, ...(chosen === '' ? {} : { variant: chosen }) },
    });
  const send = useApiAction(async (chosen: VariantId | '') => {
    setResult(null);
    setResult(await callFor(chosen).send());
  });
  const secretMissing = secretChoice === TYPED && typedSecret === '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (jsonCheck || secretMissing) return;
    void send.run(variant);
  };
  const showError = () => {
    const area = editor.current;
    if (!area || !jsonCheck) return;
    area.focus();
    area.setSelectionRange(jsonCheck.offset, Math.min(text.length, jsonCheck.offset + 1));
  };
  const chosenVariant = options.variants.find((v) => v.id === variant);

  return (
    <form className="reseal-form" onSubmit={submit} noValidate>
      <FormField
        id="reseal-json"
        label="Decrypted JSON"
        problem={jsonCheck?.message ?? fieldProblem(send.error, 'plaintext')}
        hint="Sent as compact JSON, as the service sends it; the signature is the HMAC of exactly those bytes."
      >
        {(control) => (
          <textarea
            {...control}
            ref={editor}
            className="mono json-editor"
            rows={Math.min(24, Math.max(8, text.split('\n').length + 1))}
            value={text}
            onChange={(e) => setText(e.target.value)}
            spellCheck={false}
          />
        )}
      </FormField>
      {jsonCheck && (
        <button type="button" className="button button-small" onClick={showError}>
          Show the error in the JSON
        </button>
      )}

      <fieldset className="fieldset">
        <legend className="field-label">Sign and encrypt with</legend>
        <div className="checkbox-list">
          {options.secrets.map((s) => (
            <label key={s.label} className="checkbox-card">
              <input type="radio" name="reseal-secret" checked={secretChoice === s.label} onChange={() => setSecretChoice(s.label)} />
              <span>
                <span className="checkbox-title">{s.source === 'webhook' ? 'Webhook secret' : 'Inbox secret'}</span>
                <span className="checkbox-hint muted small">{secretWording(s)}</span>
              </span>
            </label>
          ))}
          <label className="checkbox-card">
            <input type="radio" name="reseal-secret" checked={secretChoice === TYPED} onChange={() => setSecretChoice(TYPED)} />
            <span>
              <span className="checkbox-title">A secret I type</span>
              <span className="checkbox-hint muted small">
                {options.secrets.length === 0 ? 'No secret is known for this inbox.' : 'E.g. the secret your app holds.'}
              </span>
            </span>
          </label>
        </div>
      </fieldset>
      {secretChoice === TYPED && (
        <TextField
          id="reseal-secret"
          label="Secret"
          value={typedSecret}
          onChange={setTypedSecret}
          inputClassName="mono"
          autoComplete="off"
          spellCheck={false}
          problem={fieldProblem(send.error, 'secret')}
          hint={
            options.secrets.length === 0
              ? 'The inbox cannot verify it (it knows no secret): the new message will read “Signature not checked”.'
              : undefined
          }
        />
      )}

      <TextField
        id="reseal-target"
        label="Send to"
        value={targetUrl}
        onChange={setTargetUrl}
        inputClassName="mono"
        spellCheck={false}
        problem={fieldProblem(send.error, 'target_url')}
        hint="This inbox by default, or your app: https anywhere; http only to this machine unless the settings allow it. 5 s to connect, 15 s for the answer."
      />

      <FormField
        id="reseal-variant"
        label="What to send"
        problem={fieldProblem(send.error, 'variant')}
        hint={
          chosenVariant
            ? `${chosenVariant.description} The doctor says: ${chosenVariant.verdict.label}.`
            : 'A correct delivery. Or a broken variant, to test your verifier: each is named by what the doctor says about it.'
        }
      >
        {(control) => (
          <select {...control} value={variant} onChange={(e) => setVariant(e.target.value as VariantId | '')}>
            <option value="">A correct delivery (re-sealed)</option>
            <optgroup label="Broken variants (what the doctor says)">
              {options.variants.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.title} — {v.verdict.label}
                </option>
              ))}
            </optgroup>
          </select>
        )}
      </FormField>

      <div className="toolbar">
        <SubmitButton running={send.running} busyLabel="Sending…">
          {variant === '' ? 'Re-seal and send' : 'Send the broken variant'}
        </SubmitButton>
        {secretMissing && <span className="muted small">Type the secret to seal with.</span>}
      </div>
      <ErrorNotice error={send.error} onDismiss={send.clearError} fieldsShown={['plaintext', 'secret', 'target url', 'variant']} />
      {result && <ResendAnswer result={result} inboxUuid={inboxUuid} />}
      <CurlDisclosure request={callFor(variant).request} />
    </form>
  );
}

/** Edit the decrypted JSON, re-seal it with a known or typed secret, and send it (or a broken variant) to the inbox or an app. */
export function ResealPanel({ inboxUuid, messageUuid }: { inboxUuid: string; messageUuid: string }) {
  const options = useQuery(
    getQuery('/api/inboxes/uuid/{uuid}/messages/{message_uuid}/resend', { path: { uuid: inboxUuid, message_uuid: messageUuid } }),
  );
  return (
    <Panel title="Edit, re-seal and send">
      <p className="muted">
        Change the decrypted JSON, then encrypt and sign it again exactly as the service does, and send it with a delivery's headers
        (Content-Type and X-Service-Signature) to this inbox or to your app, as a new delivery (attempt 1).
      </p>
      <ErrorNotice error={options.error} onRetry={() => void options.refetch()} />
      {options.data && <ResealForm key={messageUuid} options={options.data} inboxUuid={inboxUuid} messageUuid={messageUuid} />}
    </Panel>
  );
}
