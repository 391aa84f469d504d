import { type ApiRequest, call } from '../../api/client.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { eventLabel } from '../../api/webhook-events.ts';
import type { Webhook } from '../../api/webhook-types.ts';
import { webhookPath } from '../../api/webhook-path.ts';

/** Turning a webhook on or off (PATCH is_active); an inactive webhook gets no deliveries and its retries stop. */
export function useActiveToggle(webhook: Webhook, onChanged: (webhook: Webhook) => void) {
  const request: ApiRequest = { method: 'PATCH', path: webhookPath(webhook.uuid), body: { is_active: !webhook.is_active } };
  const action = useApiAction(async () => onChanged(await call<Webhook>(request)));
  return { request, ...action };
}

export function ActiveSwitch({
  webhook,
  disabled,
  running,
  onToggle,
}: {
  webhook: Webhook;
  disabled?: boolean;
  running: boolean;
  onToggle(): void;
}) {
  // It moves at once; if the server refuses, it moves back and the error says why.
  const on = running ? !webhook.is_active : webhook.is_active;
  return (
    <label className="switch">
      <input
        type="checkbox"
        role="switch"
        checked={on}
        aria-checked={on}
        disabled={disabled}
        aria-busy={running}
        onChange={() => !running && onToggle()}
        aria-label={`Active: ${webhook.url}`}
      />
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span className="switch-text" aria-hidden="true">
        {on ? 'Active' : 'Inactive'}
      </span>
    </label>
  );
}

/** The toggle's error and curl command, placed below the row that holds the switch. */
export function ToggleFeedback({ toggle, webhook }: { toggle: ReturnType<typeof useActiveToggle>; webhook: Webhook }) {
  return (
    <>
      <ErrorNotice error={toggle.error} onDismiss={toggle.clearError} />
      <CurlDisclosure request={toggle.request} label={webhook.is_active ? 'Show curl to turn it off' : 'Show curl to turn it on'} />
    </>
  );
}

export function DeleteWebhookDialog({ webhook, onCancel, onDeleted }: { webhook: Webhook; onCancel(): void; onDeleted(): void }) {
  const request: ApiRequest = { method: 'DELETE', path: webhookPath(webhook.uuid) };
  return (
    <ConfirmDialog
      title="Delete this webhook?"
      confirmLabel="Delete webhook"
      busyLabel="Deleting…"
      request={request}
      onDone={onDeleted}
      onCancel={onCancel}
    >
      <p>
        <code className="break">{webhook.url}</code> gets no more events, and its pending retries stop. Its delivery log goes with it. This
        cannot be undone; to pause deliveries instead, turn the webhook off.
      </p>
    </ConfirmDialog>
  );
}

export function EventBadges({ events }: { events: readonly string[] }) {
  return (
    <span className="event-badges">
      {events.map((e) => (
        <span key={e} className="badge badge-event" title={e}>
          {eventLabel(e)}
        </span>
      ))}
    </span>
  );
}
