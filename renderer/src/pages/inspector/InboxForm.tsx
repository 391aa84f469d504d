import { type FormEvent, useId, useState } from 'react';
import type { ApiRequest } from '../../api/client.ts';
import { fieldProblem } from '../../api/describe-error.ts';
import { type FormAction, FormActions } from '../../components/FormActions.tsx';
import { FormField, TextField } from '../../components/FormField.tsx';
import type { Inbox, InboxResponse } from '../../api/inspector-types.ts';

/** The form's text, as typed; inboxBody turns it into the API body. */
export interface InboxDraft {
  name: string;
  secrets: string;
  forwardTo: string;
  status: string;
  delayMs: string;
  drop: boolean;
}

export const emptyDraft: InboxDraft = { name: '', secrets: '', forwardTo: '', status: '', delayMs: '0', drop: false };

export function draftFrom(inbox: Inbox): InboxDraft {
  return {
    name: inbox.name,
    secrets: (inbox.secrets ?? []).join('\n'),
    forwardTo: inbox.forward_to ?? '',
    status: inbox.response.status === null ? '' : String(inbox.response.status),
    delayMs: String(inbox.response.delay_ms),
    drop: inbox.response.drop,
  };
}

/** Numbers as typed: the server names the problem when one is out of range. */
function numberOr<T>(text: string, empty: T): number | T {
  const trimmed = text.trim();
  return trimmed === '' ? empty : Number(trimmed);
}

export function inboxBody(draft: InboxDraft): { name: string; secrets: string[]; forward_to: string | null; response: InboxResponse } {
  return {
    name: draft.name.trim(),
    secrets: draft.secrets
      .split('\n')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
    forward_to: draft.forwardTo.trim() === '' ? null : draft.forwardTo.trim(),
    response: { status: numberOr(draft.status, null), delay_ms: numberOr(draft.delayMs, 0), drop: draft.drop },
  };
}

/** Problems found before sending, by field. */
export function draftProblems(draft: InboxDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  if (draft.name.trim() === '') problems.name = 'Give the inbox a name, e.g. the integration it is for.';
  const status = draft.status.trim();
  if (status !== '' && !/^\d{3}$/.test(status))
    problems['response.status'] = 'A status is a number from 200 to 599; leave it empty for normal answers.';
  if (!/^\d+$/.test(draft.delayMs.trim() || '0')) problems['response.delay_ms'] = 'A delay is a whole number of milliseconds, 0 to 60000.';
  return problems;
}

/** Create or edit an inbox: name, secrets, forwarding and fault injection. */
export function InboxForm({
  draft,
  onChange,
  submitLabel,
  action,
  request,
  onCancel,
  title,
}: {
  draft: InboxDraft;
  onChange(draft: InboxDraft): void;
  submitLabel: string;
  /** Sends the draft (useApiAction); called once the draft passes the checks made before sending. */
  action: FormAction & { run(): Promise<unknown> };
  request: ApiRequest;
  onCancel?(): void;
  title: string;
}) {
  const id = useId();
  const titleId = `${id}-title`;
  const [checked, setChecked] = useState<Record<string, string>>({});
  const problem = (field: string) => checked[field] ?? fieldProblem(action.error, field);
  const set = (changes: Partial<InboxDraft>) => {
    onChange({ ...draft, ...changes });
    setChecked({});
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = draftProblems(draft);
    setChecked(found);
    if (Object.keys(found).length === 0) void action.run();
  };
  const numberField = (key: 'status' | 'delayMs', label: string, hint: string, placeholder?: string) => (
    <TextField
      id={`${id}-${key === 'status' ? 'status' : 'delay'}`}
      label={label}
      hint={hint}
      problem={problem(key === 'status' ? 'response.status' : 'response.delay_ms')}
      inputMode="numeric"
      value={draft[key]}
      onChange={(value) => set({ [key]: value })}
      placeholder={placeholder}
    />
  );
  const shown = ['name', 'secrets', 'forward to', 'response.status', 'response.delay ms'];
  const secretCount = inboxBody(draft).secrets.length;
  return (
    <form className="inbox-form" onSubmit={submit} aria-labelledby={titleId} noValidate>
      <h3 id={titleId}>{title}</h3>
      <div className="form-grid">
        <TextField
          id={`${id}-name`}
          label="Name"
          problem={problem('name')}
          value={draft.name}
          onChange={(name) => set({ name })}
          placeholder="e.g. Payroll integration"
          maxLength={200}
        />
        <TextField
          id={`${id}-forward`}
          label="Forward to (optional)"
          hint="Every message is relayed, bytes and headers unchanged, to your own app at this URL."
          problem={problem('forward_to')}
          value={draft.forwardTo}
          onChange={(forwardTo) => set({ forwardTo })}
          placeholder="http://127.0.0.1:3000/webhooks"
          spellCheck={false}
        />
      </div>
      <FormField
        id={`${id}-secrets`}
        label="Secrets (optional, one per line)"
        hint={
          <>
            To verify signatures of webhooks registered elsewhere (e.g. the real service). Webhooks registered in this app at the inbox's
            URL are known already.
            {secretCount > 0 && ` ${secretCount} ${secretCount === 1 ? 'secret' : 'secrets'}.`}
          </>
        }
        problem={problem('secrets')}
      >
        {(control) => (
          <textarea
            {...control}
            className="mono"
            rows={2}
            value={draft.secrets}
            onChange={(e) => set({ secrets: e.target.value })}
            spellCheck={false}
            autoComplete="off"
          />
        )}
      </FormField>
      <fieldset className="fieldset">
        <legend>Fault injection: how the inbox answers every request</legend>
        <p className="fieldset-hint muted small">
          The answer rule without conditions. To answer by event, attempt or the Nth message, use Answer rules on the inbox page.
        </p>
        <div className="form-grid form-grid-3">
          {numberField('status', 'Answer status', 'Empty: normal answers (200, or 400 for a bad delivery). E.g. 500, 503, 429.', 'normal')}
          {numberField('delayMs', 'Delay (ms)', '0 to 60000. Over 15000 the sender times out.')}
          <div className="field field-check">
            <label className="checkbox">
              <input type="checkbox" checked={draft.drop} onChange={(e) => set({ drop: e.target.checked })} />
              Drop the connection without an answer
            </label>
          </div>
        </div>
      </fieldset>
      <FormActions
        action={action}
        submitLabel={submitLabel}
        fieldsShown={shown}
        onCancel={onCancel}
        request={request}
        className="row-actions row-actions-start"
      />
    </form>
  );
}
