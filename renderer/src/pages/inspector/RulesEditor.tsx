import { type FormEvent, useId, useState } from 'react';
import { type ApiRequest, call } from '../../api/client.ts';
import { fieldProblem } from '../../api/describe-error.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { FormActions } from '../../components/FormActions.tsx';
import { FormField, TextField } from '../../components/FormField.tsx';
import { Panel } from '../../components/Panel.tsx';
import { type Inbox, inboxPath } from '../../api/inspector-types.ts';
import { eventLabel, webhookEvents } from '../../api/webhook-events.ts';
import { draftOf, emptyRule, failFirstRule, type RuleDraft, ruleOf, ruleProblems } from './rules-draft.ts';

function RuleFields({
  draft,
  index,
  count,
  problem,
  onChange,
  onMove,
  onRemove,
}: {
  draft: RuleDraft;
  index: number;
  count: number;
  problem(path: string): string | undefined;
  onChange(changes: Partial<RuleDraft>): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}) {
  const id = useId();
  const n = index + 1;
  const at = (field: string) => problem(`rules.${index}.${field}`);
  const field = (key: keyof RuleDraft, label: string, fieldPath: string, placeholder: string, hint?: string) => (
    <TextField
      id={`${id}-${key}`}
      label={label}
      hint={hint}
      problem={at(fieldPath)}
      inputMode="numeric"
      value={String(draft[key])}
      onChange={(value) => onChange({ [key]: value })}
      placeholder={placeholder}
    />
  );
  return (
    <li className="rule">
      <fieldset className="fieldset rule-fieldset" aria-label={`Rule ${n}`}>
        <div className="rule-header">
          <strong>Rule {n}</strong>
          <span className="rule-buttons">
            <button
              type="button"
              className="button button-small"
              onClick={() => onMove(-1)}
              disabled={index === 0}
              aria-label={`Move rule ${n} up`}
            >
              ↑
            </button>
            <button
              type="button"
              className="button button-small"
              onClick={() => onMove(1)}
              disabled={index === count - 1}
              aria-label={`Move rule ${n} down`}
            >
              ↓
            </button>
            <button type="button" className="button button-small button-danger-quiet" onClick={onRemove} aria-label={`Remove rule ${n}`}>
              Remove
            </button>
          </span>
        </div>
        <p className="rule-section muted small">When (all that are given; none: every request)</p>
        <fieldset className="rule-events" aria-label={`Rule ${n} events`}>
          {webhookEvents().map(({ type }) => (
            <label key={type} className="checkbox">
              <input
                type="checkbox"
                checked={draft.events.includes(type)}
                onChange={(e) => onChange({ events: e.target.checked ? [...draft.events, type] : draft.events.filter((t) => t !== type) })}
              />
              {eventLabel(type)}
            </label>
          ))}
          {at('match.event_type') && <span className="field-problem">{at('match.event_type')}</span>}
        </fieldset>
        <div className="form-grid form-grid-4">
          {field('attemptFrom', 'Attempt from', draft.attemptFrom === draft.attemptTo ? 'match.attempt' : 'match.attempt_at_least', 'any')}
          {field('attemptTo', 'Attempt to', 'match.attempt_at_most', 'any', 'Of a delivery this server sends')}
          {field('messageFrom', 'Message from', draft.messageFrom === draft.messageTo ? 'match.message' : 'match.message_at_least', 'any')}
          {field('messageTo', 'Message to', 'match.message_at_most', 'any', 'The Nth request since the rules were saved')}
        </div>
        <p className="rule-section muted small">Answer</p>
        <div className="form-grid form-grid-3">
          {field('status', 'Status', 'respond.status', 'normal', '200 to 599; empty: 200, or 400 for a bad delivery')}
          {field('delayMs', 'Delay (ms)', 'respond.delay_ms', '0', '0 to 60000')}
          <div className="field field-check">
            <label className="checkbox">
              <input type="checkbox" checked={draft.drop} onChange={(e) => onChange({ drop: e.target.checked })} />
              Drop the connection
            </label>
          </div>
        </div>
        <FormField
          id={`${id}-body`}
          label="Body (optional)"
          hint="JSON (an object or a list) is sent as JSON, anything else as text."
          problem={at('respond.body')}
        >
          {(control) => (
            <textarea
              {...control}
              className="mono"
              rows={3}
              value={draft.body}
              onChange={(e) => onChange({ body: e.target.value })}
              spellCheck={false}
            />
          )}
        </FormField>
      </fieldset>
    </li>
  );
}

/** The inbox's answer rules: edit, reorder, add (or the "fail the first N attempts" preset), remove, save. */
export function RulesEditor({ inbox, onSaved }: { inbox: Inbox; onSaved(inbox: Inbox): void }) {
  const id = useId();
  const [drafts, setDrafts] = useState<RuleDraft[]>(() => inbox.rules.map(draftOf));
  const [checked, setChecked] = useState<Record<string, string>>({});
  const [presetAttempts, setPresetAttempts] = useState('2');
  const [presetStatus, setPresetStatus] = useState('503');
  const [saved, setSaved] = useState(false);
  const request: ApiRequest = { method: 'PATCH', path: inboxPath(inbox.uuid), body: { rules: drafts.map(ruleOf) } };
  const save = useApiAction(async () => {
    const next = await call<Inbox>(request);
    setDrafts(next.rules.map(draftOf));
    setSaved(true);
    onSaved(next);
  });
  const problem = (path: string) => checked[path] ?? fieldProblem(save.error, path);
  const update = (next: RuleDraft[]) => {
    setDrafts(next);
    setChecked({});
    setSaved(false);
    save.clearError();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = ruleProblems(drafts);
    setChecked(found);
    if (Object.keys(found).length === 0) void save.run();
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...drafts];
    const [rule] = next.splice(index, 1);
    if (rule) next.splice(index + by, 0, rule);
    update(next);
  };
  const attempts = Number(presetAttempts);
  const status = Number(presetStatus);
  const presetOk = Number.isInteger(attempts) && attempts >= 1 && Number.isInteger(status) && status >= 200 && status <= 599;
  return (
    <Panel title="Answer rules">
      <form onSubmit={submit} noValidate aria-label="Answer rules">
        <p className="muted small">
          The first rule that matches a request decides the answer; a request no rule matches is answered normally: 200, or 400 when it
          cannot be decrypted. Every request is stored first, whatever the answer.
        </p>
        {drafts.length === 0 ? (
          <p className="empty-hint">No rules: this inbox answers every request normally.</p>
        ) : (
          <ol className="rules">
            {drafts.map((draft, index) => (
              <RuleFields
                key={draft.key}
                draft={draft}
                index={index}
                count={drafts.length}
                problem={problem}
                onChange={(changes) => update(drafts.map((d, i) => (i === index ? { ...d, ...changes } : d)))}
                onMove={(by) => move(index, by)}
                onRemove={() => update(drafts.filter((_, i) => i !== index))}
              />
            ))}
          </ol>
        )}
        <div className="rule-add">
          <button type="button" className="button" onClick={() => update([...drafts, emptyRule()])}>
            Add a rule
          </button>
          <span className="rule-preset">
            <label htmlFor={`${id}-preset-n`}>Fail the first</label>
            <NarrowNumber id={`${id}-preset-n`} value={presetAttempts} onChange={setPresetAttempts} />
            <label htmlFor={`${id}-preset-status`}>attempts with</label>
            <NarrowNumber id={`${id}-preset-status`} value={presetStatus} onChange={setPresetStatus} />
            <button
              type="button"
              className="button"
              disabled={!presetOk}
              onClick={() => update([...drafts, failFirstRule(attempts, status)])}
            >
              Add preset
            </button>
          </span>
        </div>
        {saved && (
          <p className="notice notice-success" role="status">
            Rules saved. They apply to the next request; message numbers count from 1 again.
          </p>
        )}
        <FormActions action={save} submitLabel="Save rules" fieldsShown={[]} request={request} className="row-actions row-actions-start" />
      </form>
    </Panel>
  );
}

function NarrowNumber({ id, value, onChange }: { id: string; value: string; onChange(value: string): void }) {
  return <input id={id} className="input-narrow" inputMode="numeric" value={value} onChange={(e) => onChange(e.target.value)} />;
}
