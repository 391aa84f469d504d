import './verdicts.css';
import type { Hint, SignatureStatus } from '../api/inspector-types.ts';

const hintFields: Record<Hint['field'], string> = { payload: 'Payload', signature: 'Signature', secret: 'Secret' };

/** The decryption verdict: "Decrypted", or "Not decrypted" with the reason (in the title, or shown in full). */
export function DecryptionBadge({ decrypted, reason }: { decrypted: boolean; reason?: string | null }) {
  if (decrypted) return <span className="badge badge-completed">Decrypted</span>;
  return (
    <span className="badge badge-failed" title={reason ?? undefined}>
      Not decrypted
    </span>
  );
}

const signatureText: Record<SignatureStatus, { label: string; className: string; explain: string }> = {
  valid: {
    label: 'Signature valid',
    className: 'badge-completed',
    explain: 'The HMAC matches a known secret: the message is authentic and unchanged.',
  },
  invalid: {
    label: 'Signature invalid',
    className: 'badge-failed',
    explain: 'The HMAC matches none of the known secrets: a wrong secret, or the message was changed.',
  },
  unknown: {
    label: 'Signature not checked',
    className: 'badge-neutral',
    explain: 'No secret is known for this message (or it was not decrypted), so the signature could not be checked.',
  },
};

export function SignatureBadge({ status }: { status: SignatureStatus }) {
  const text = signatureText[status];
  return (
    <span className={`badge ${text.className}`} title={text.explain}>
      {text.label}
    </span>
  );
}

export function signatureExplanation(status: SignatureStatus): string {
  return signatureText[status].explain;
}

export function DuplicateBadge({ by }: { by: string | null }) {
  const how =
    by === 'delivery_id'
      ? 'the same delivery id'
      : by === 'signature'
        ? 'the same signature'
        : by === 'event_id'
          ? 'the same event id'
          : 'an earlier message';
  return (
    <span className="badge badge-pending" title={`Duplicate: ${how} as an earlier message`}>
      Duplicate
    </span>
  );
}

/** The doctor's hints in plain words, each under the input it is about. */
export function HintList({ hints, title = "The doctor's hints" }: { hints: Hint[]; title?: string }) {
  if (hints.length === 0) return null;
  return (
    <section className="hints" aria-label={title}>
      <h3>{title}</h3>
      <ul className="hint-list">
        {hints.map((hint) => (
          <li key={`${hint.code}:${hint.message}`} className="hint-item">
            <span className="hint-field">{hintFields[hint.field]}</span>
            <span className="hint-message">{hint.message}</span>
            <code className="hint-code">{hint.code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
