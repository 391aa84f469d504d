import { type FormEvent, type ReactNode, useState } from 'react';
import './decrypt.css';
import { ApiFailure } from '../../api/client.ts';
import { writeCall } from '../../api/write-call.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ClearButton, SubmitButton } from '../../components/FormActions.tsx';
import { FormField, TextField } from '../../components/FormField.tsx';
import { JsonTree } from '../../components/JsonTree.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Panel } from '../../components/Panel.tsx';
import type { Schemas } from '../../api/types.ts';

type DecryptResult = Schemas['DecryptResult'];
import type { Hint, SignatureStatus } from '../../api/inspector-types.ts';
import { DecryptionBadge, HintList, SignatureBadge } from '../../components/Verdicts.tsx';
import { CodeBlock } from '../../components/CodeBlock.tsx';

const HINT_FIELDS = { 'body.payload': 'payload', 'body.body': 'payload', 'body.signature': 'signature', 'body.secret': 'secret' } as const;

/**
 * A payload that does not decrypt is a 400 whose details carry the doctor's hints as
 * {path: "body.payload", message: "CODE: text"}; null for any other failure.
 */
export function hintsOfFailure(error: unknown): { reason: string; hints: Hint[] } | null {
  if (!(error instanceof ApiFailure) || error.code !== 'VALIDATION_ERROR' || !error.message.startsWith('Cannot decrypt')) return null;
  const hints = error.details.flatMap((d): Hint[] => {
    const field = (HINT_FIELDS as Record<string, Hint['field']>)[d.path];
    const match = /^([A-Z][A-Z0-9_]+): ([\s\S]*)$/.exec(d.message);
    if (!field || !match) return [];
    return [{ code: match[1] ?? '', field, message: match[2] ?? '' }];
  });
  return { reason: error.message.replace(/^Cannot decrypt:\s*/, ''), hints };
}

/** Whole body {"payload": …} or the bare payload: sent as the field it is. */
export function decryptBody(
  input: string,
  signature: string,
  secret: string,
): { body?: string; payload?: string; signature: string; secret?: string } {
  const text = input.trim();
  const main = text.startsWith('{') ? { body: text } : { payload: text };
  return { ...main, signature: signature.trim(), ...(secret === '' ? {} : { secret }) };
}

/** The verdicts on decryption and signature, then the rest of what came back. */
function ResultPanel({
  decrypted,
  decryption,
  signature,
  signatureText,
  children,
}: {
  decrypted: boolean;
  decryption: string;
  signature: SignatureStatus;
  signatureText: string;
  children: ReactNode;
}) {
  return (
    <Panel title="Result" aria-live="polite">
      <div className="verdicts">
        <div className="verdict">
          <DecryptionBadge decrypted={decrypted} />
          <p>{decryption}</p>
        </div>
        <div className="verdict">
          <SignatureBadge status={signature} />
          <p>{signatureText}</p>
        </div>
      </div>
      {children}
    </Panel>
  );
}

export function DecryptPage() {
  const [input, setInput] = useState('');
  const [signature, setSignature] = useState('');
  const [secret, setSecret] = useState('');
  const [missing, setMissing] = useState<{ input?: string; signature?: string }>({});
  const [result, setResult] = useState<DecryptResult | null>(null);
  const decryptCall = writeCall('post', '/api/tools/decrypt', { body: decryptBody(input, signature, secret) });
  const { request } = decryptCall;
  const decrypt = useApiAction(async () => {
    setResult(null);
    setResult(await decryptCall.send());
  });
  const failure = hintsOfFailure(decrypt.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = {
      ...(input.trim() === '' ? { input: 'Paste the request body ({"payload": "…"}) or the payload string.' } : {}),
      ...(signature.trim() === '' ? { signature: 'Paste the X-Service-Signature header value that came with this same delivery.' } : {}),
    };
    setMissing(problems);
    if (Object.keys(problems).length === 0) void decrypt.run();
  };

  return (
    <>
      <PageHeader
        title="Decrypt"
        description="Paste a webhook delivery and its X-Service-Signature header to see the plaintext and whether the signature is valid. This runs in the QR Sandbox server on this machine: no internet connection needed, nothing leaves the computer."
      />
      <Panel title="Delivery">
        <form className="decrypt-form" onSubmit={submit} noValidate>
          <FormField
            id="decrypt-input"
            label="Body or payload"
            problem={missing.input}
            hintOrProblem
            hint={
              input.trim().startsWith('{')
                ? 'Read as the whole request body.'
                : input.trim() === ''
                  ? 'The whole request body, or only its "payload" string.'
                  : 'Read as the bare base64 payload.'
            }
          >
            {(control) => (
              <textarea
                {...control}
                className="mono"
                rows={5}
                value={input}
                onChange={(e) => {
                  setInput(e.target.value);
                  setMissing((m) => ({ ...m, input: undefined }));
                }}
                placeholder='{"payload":"q83vASNFZ4mrze8BI0VniQ…"}  or just the base64 payload'
                spellCheck={false}
              />
            )}
          </FormField>
          <div className="form-grid">
            <TextField
              id="decrypt-signature"
              label="Signature header"
              inputClassName="mono"
              value={signature}
              onChange={(value) => {
                setSignature(value);
                setMissing((m) => ({ ...m, signature: undefined }));
              }}
              placeholder="sha256=3f2a…"
              spellCheck={false}
              autoComplete="off"
              problem={missing.signature}
              hintOrProblem
              hint={
                <>
                  The X-Service-Signature value: <code>sha256=&lt;64 hex&gt;</code> or the bare hex. Its first 32 characters are the AES
                  key.
                </>
              }
            />
            <TextField
              id="decrypt-secret"
              label="Webhook secret (optional)"
              inputClassName="mono"
              type="password"
              value={secret}
              onChange={setSecret}
              spellCheck={false}
              autoComplete="off"
              hint="Needed only to check the signature; decryption works without it."
            />
          </div>
          <div className="row-actions row-actions-start">
            <SubmitButton running={decrypt.running} busyLabel="Decrypting…">
              Decrypt and verify
            </SubmitButton>
            <ClearButton
              shown={input !== '' || signature !== '' || secret !== ''}
              onClear={() => {
                setInput('');
                setSignature('');
                setSecret('');
                setResult(null);
                setMissing({});
                decrypt.clearError();
              }}
            />
          </div>
          {!failure && <ErrorNotice error={decrypt.error} onDismiss={decrypt.clearError} />}
          <CurlDisclosure request={request} />
        </form>
      </Panel>

      {failure && (
        <ResultPanel
          decrypted={false}
          decryption={failure.reason}
          signature="unknown"
          signatureText="Nothing was decrypted, so the signature could not be checked."
        >
          {failure.hints.length > 0 ? (
            <HintList hints={failure.hints} />
          ) : (
            <p className="muted">
              The doctor found no usual mistake that explains this. Check that body and signature come from the same delivery.
            </p>
          )}
        </ResultPanel>
      )}

      {result && (
        <ResultPanel
          decrypted
          decryption="The payload decrypted with the key taken from the signature."
          signature={result.verified === null ? 'unknown' : result.verified ? 'valid' : 'invalid'}
          signatureText={
            result.verified === null
              ? 'Not checked: give the webhook secret to verify the signature.'
              : result.verified
                ? 'The HMAC-SHA256 of the plaintext with this secret matches the signature: authentic and unchanged.'
                : 'The HMAC-SHA256 of the plaintext with this secret does not match the signature. See the hints below.'
          }
        >
          <HintList hints={result.hints} />
          <h3 className="subheading">JSON</h3>
          {result.json !== null && result.json !== undefined ? (
            <JsonTree
              value={result.json}
              label="Decrypted JSON"
              actions={<CopyButton text={JSON.stringify(result.json, null, 2)} label="Copy JSON" className="button-quiet" />}
            />
          ) : (
            <p className="muted">The plaintext is not JSON.</p>
          )}
          <details className="plaintext">
            <summary>Plaintext exactly as decrypted</summary>
            <CodeBlock label="Plaintext">{result.plaintext}</CodeBlock>
            <CopyButton text={result.plaintext} label="Copy plaintext" />
          </details>
        </ResultPanel>
      )}
    </>
  );
}
