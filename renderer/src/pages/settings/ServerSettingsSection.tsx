import { type FormEvent, useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getQuery, getRequest } from '../../api/get-query.ts';
import { writeCall } from '../../api/write-call.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDateTime } from '../../components/date-time.ts';
import { DateOrderSection } from './DateOrderSection.tsx';
import { scheduleLabels } from '../../api/webhook-format.ts';
import { RETRY_SCHEDULES, type RetryScheduleName, type Settings } from '../../api/webhook-types.ts';
import { Panel } from '../../components/Panel.tsx';
import { Loading } from '../../components/QueryState.tsx';
import { TextField } from '../../components/FormField.tsx';
import { fieldProblem } from '../../api/describe-error.ts';
import { SandboxOnlyBadge } from '../../components/SandboxOnlyBadge.tsx';

const readRequest = getRequest('/api/settings', {});

const DEFAULT_AUTO_DISABLE_S = 24 * 3600;
const hoursOf = (settings: Settings) => String((settings.webhook_auto_disable_after_s ?? DEFAULT_AUTO_DISABLE_S) / 3600);
const timeoutOf = (settings: Settings) => String(settings.webhook_timeout_s ?? '');
const settingsQuery = getQuery('/api/settings', {});

/** Webhook delivery settings of the organization (GET/PATCH /api/settings; changing needs an admin key). */
function WebhookSettingsForm({ settings, role, onSaved }: { settings: Settings; role: string; onSaved(next: Settings): void }) {
  const canChange = role === 'admin';
  const [schedule, setSchedule] = useState<RetryScheduleName>(settings.webhook_retry_schedule);
  const [allowHttp, setAllowHttp] = useState(settings.allow_http_webhooks);
  const savedHours = hoursOf(settings);
  const [disableHours, setDisableHours] = useState(savedHours);
  const savedTimeout = timeoutOf(settings);
  const [timeoutSeconds, setTimeoutSeconds] = useState(savedTimeout);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setSchedule(settings.webhook_retry_schedule);
    setAllowHttp(settings.allow_http_webhooks);
    setDisableHours(hoursOf(settings));
    setTimeoutSeconds(timeoutOf(settings));
  }, [settings]);
  const changed =
    schedule !== settings.webhook_retry_schedule ||
    allowHttp !== settings.allow_http_webhooks ||
    disableHours !== savedHours ||
    timeoutSeconds !== savedTimeout;
  const saveCall = writeCall('patch', '/api/settings', {
    body: {
      ...(schedule !== settings.webhook_retry_schedule || !changed ? { webhook_retry_schedule: schedule } : {}),
      ...(allowHttp !== settings.allow_http_webhooks ? { allow_http_webhooks: allowHttp } : {}),
      // Hours as typed: the server names the problem when they are not a number in range.
      ...(disableHours !== savedHours ? { webhook_auto_disable_after_s: Math.round(Number(disableHours.trim()) * 3600) } : {}),
      ...(timeoutSeconds !== savedTimeout ? { webhook_timeout_s: Number(timeoutSeconds.trim()) } : {}),
    },
  });
  const { request } = saveCall;
  const save = useApiAction(async () => {
    onSaved(await saveCall.send());
    setSaved(true);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  const edit = () => {
    setSaved(false);
    save.clearError();
  };

  return (
    <form onSubmit={submit} aria-labelledby="webhook-settings-title">
      <h2 id="webhook-settings-title">Webhook delivery</h2>
      {!canChange && (
        <p className="notice notice-info">
          Only an admin key can change these settings. This session uses {role === 'editor' ? 'an' : 'a'} {role} key, so they are shown
          read-only.
        </p>
      )}
      <p className="field-hint fieldset-hint">
        <SandboxOnlyBadge /> The real service does not document its retries, timeout or what it does with answers other than 2xx: these are
        this sandbox's choices, so your receiver should not count on them.
      </p>
      <fieldset className="fieldset" disabled={!canChange}>
        <legend className="field-label">Retry schedule</legend>
        <p className="field-hint fieldset-hint">
          When a delivery fails (no 2xx answer; redirects are not followed), it is tried again after these waits; then it is marked failed.
          A change applies to the next retry of every pending delivery.
        </p>
        <div className="checkbox-list">
          {RETRY_SCHEDULES.map((name) => (
            <label key={name} className="checkbox checkbox-card">
              <input
                type="radio"
                name="retry-schedule"
                value={name}
                checked={schedule === name}
                onChange={() => {
                  setSchedule(name);
                  edit();
                }}
              />
              <span>
                <span className="checkbox-title">{scheduleLabels[name].title}</span>
                <span className="field-hint checkbox-hint">{scheduleLabels[name].detail}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="fieldset" disabled={!canChange}>
        <legend className="field-label">Allowed webhook URLs</legend>
        <p className="field-hint fieldset-hint">
          <code>https://</code> is always allowed, and plain <code>http://</code> to this machine (<code>127.0.0.1</code>,{' '}
          <code>localhost</code>, <code>[::1]</code>). Link-local and cloud metadata addresses are always refused.
        </p>
        <label className="checkbox checkbox-card">
          <input
            type="checkbox"
            checked={allowHttp}
            onChange={(e) => {
              setAllowHttp(e.target.checked);
              edit();
            }}
          />
          <span>
            <span className="checkbox-title">Allow plain http:// webhooks to other machines</span>
            <span className="field-hint checkbox-hint">
              Deliveries stay encrypted and signed, but the request itself travels unprotected. Switching this off again stops retries to
              such URLs.
            </span>
          </span>
        </label>
      </fieldset>
      <fieldset className="fieldset" disabled={!canChange}>
        <legend className="field-label">Time limit of an attempt</legend>
        <TextField
          id="webhook-timeout"
          label="Seconds an attempt may take"
          hint="From connecting to the whole answer; a slower answer counts as failed and is retried. 1 to 120."
          problem={fieldProblem(save.error, 'webhook_timeout_s')}
          inputMode="numeric"
          value={timeoutSeconds}
          onChange={(value) => {
            setTimeoutSeconds(value);
            edit();
          }}
        />
      </fieldset>
      <fieldset className="fieldset" disabled={!canChange}>
        <legend className="field-label">Disable failing webhooks</legend>
        <TextField
          id="webhook-auto-disable"
          label="Disable a webhook whose every attempt failed for (hours)"
          hint="It becomes inactive and says why on its page, where one click enables it again. 0: never. Default 24."
          problem={fieldProblem(save.error, 'webhook_auto_disable_after_s')}
          inputMode="decimal"
          value={disableHours}
          onChange={(value) => {
            setDisableHours(value);
            edit();
          }}
        />
      </fieldset>
      <ErrorNotice error={save.error} onDismiss={save.clearError} />
      {saved && !changed && (
        <p className="notice notice-success" role="status">
          Settings saved.
        </p>
      )}
      {canChange && (
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={!changed || save.running}>
            {save.running ? 'Saving…' : 'Save settings'}
          </button>
          {changed && (
            <button
              type="button"
              className="button button-quiet"
              onClick={() => {
                setSchedule(settings.webhook_retry_schedule);
                setAllowHttp(settings.allow_http_webhooks);
                setDisableHours(savedHours);
                setTimeoutSeconds(savedTimeout);
                edit();
              }}
            >
              Undo changes
            </button>
          )}
          <span className="muted form-actions-note">
            {settings.updated_on ? `Last changed ${formatDateTime(settings.updated_on)}` : 'The defaults of this server apply.'}
          </span>
        </div>
      )}
      {canChange && <CurlDisclosure request={request} label="Show curl to save" />}
    </form>
  );
}

export function ServerSettingsSections() {
  const { session } = useSignedIn();
  const settings = useQuery(settingsQuery);
  const queryClient = useQueryClient();
  const data = settings.data;
  return (
    <>
      <section className="panel">
        {data ? (
          <WebhookSettingsForm
            settings={data}
            role={session.role}
            onSaved={(next) => queryClient.setQueryData(settingsQuery.queryKey, next)}
          />
        ) : (
          <>
            <h2>Webhook delivery</h2>
            {settings.isFetching && <Loading>Loading settings…</Loading>}
          </>
        )}
        <ErrorNotice error={settings.error} onRetry={() => void settings.refetch()} />
        <CurlDisclosure request={readRequest} label="Show curl to read the settings" />
      </section>
      {data && (
        <DateOrderSection settings={data} role={session.role} onSaved={(next) => queryClient.setQueryData(settingsQuery.queryKey, next)} />
      )}
      <Panel title="This server">
        {data && (
          <dl className="facts">
            <div className="fact fact-wide">
              <dt>Data folder</dt>
              <dd>
                <span className="secret-row">
                  <code className="break path">{data.data_dir}</code>
                  <CopyButton text={data.data_dir} label="Copy path" />
                </span>
                <span className="field-hint">
                  The database, uploads and logs. Chosen when the server starts (<code>--data-dir</code>); to start over, stop the server
                  and delete the folder.
                </span>
              </dd>
            </div>
          </dl>
        )}
        {!data && settings.isFetching && <Loading>Loading…</Loading>}
        {!data && !settings.isFetching && <p className="muted">Not known: the settings could not be read (see above).</p>}
      </Panel>
    </>
  );
}
