import { type FormEvent, useId, useState } from 'react';
import { type ApiRequest, call } from '../../api/client.ts';
import { fieldProblem } from '../../api/describe-error.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { FormActions } from '../../components/FormActions.tsx';
import { TextField } from '../../components/FormField.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import { webhookPath } from '../../api/webhook-path.ts';
import type { Webhook } from '../../api/webhook-types.ts';
import { waitsOf } from '../../api/webhook-format.ts';

type Choice = 'organization' | 'standard' | 'fast' | 'custom';

const choices = [
  ['organization', "The organization's setting"],
  ['standard', 'Standard: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h'],
  ['fast', 'Fast: 1 s, 2 s, 5 s, 10 s, 30 s'],
  ['custom', 'Its own waits'],
] as const;

const seconds = (ms: number) => String(ms / 1000);

function choiceOf(schedule: Webhook['retry_schedule']): Choice {
  if (schedule == null) return 'organization';
  return typeof schedule === 'string' ? schedule : 'custom';
}

/** The webhook's retry schedule: the organization's, a preset, or its own waits. */
export function RetryScheduleForm({ webhook, canEdit, onChanged }: { webhook: Webhook; canEdit: boolean; onChanged(next: Webhook): void }) {
  const id = useId();
  const [choice, setChoice] = useState<Choice>(choiceOf(webhook.retry_schedule));
  const [custom, setCustom] = useState(Array.isArray(webhook.retry_schedule) ? webhook.retry_schedule.map(seconds).join(', ') : '');
  const [problem, setProblem] = useState<string | undefined>();
  const waits = waitsOf(custom);
  const schedule = choice === 'organization' ? null : choice === 'custom' ? (waits ?? []) : choice;
  const request: ApiRequest = { method: 'PATCH', path: webhookPath(webhook.uuid), body: { retry_schedule: schedule } };
  const save = useApiAction(async () => onChanged(await call<Webhook>(request)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = choice === 'custom' && waits === null ? 'Give the waits in seconds, separated by commas, e.g. 1, 5, 30.' : undefined;
    setProblem(found);
    if (!found) void save.run();
  };
  return (
    <form className="retry-schedule" onSubmit={submit} noValidate aria-label="Retry schedule">
      <SelectField
        label="Retry schedule"
        value={choice}
        onChange={(value) => {
          setChoice(value as Choice);
          setProblem(undefined);
          save.clearError();
        }}
        options={choices}
      />
      {choice === 'custom' && (
        <TextField
          id={`${id}-waits`}
          label="Waits before attempt 2, 3, … (seconds)"
          hint="Up to 20 waits, each at most 86400 (24 h); the delivery is given up after the last."
          problem={problem ?? fieldProblem(save.error, 'retry_schedule')}
          value={custom}
          onChange={setCustom}
          placeholder="1, 5, 30"
          inputClassName="mono"
        />
      )}
      {canEdit && (
        <FormActions
          action={save}
          submitLabel="Save schedule"
          fieldsShown={['retry schedule']}
          request={request}
          className="row-actions row-actions-start"
        />
      )}
    </form>
  );
}
