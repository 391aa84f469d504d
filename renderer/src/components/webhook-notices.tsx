import { useQueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { type ApiRequest, call } from '../api/client.ts';
import { useApiAction } from '../api/use-api-action.ts';
import { ActionButton } from './FormActions.tsx';
import { CurlDisclosure } from './CurlDisclosure.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';
import type { DeliveryExhaustedEvent } from '../live/events.ts';
import { useLiveEvent } from '../live/live-store.ts';
import { Link } from '../router.tsx';
import { webhookPath } from '../api/webhook-path.ts';
import { eventLabel } from '../api/webhook-events.ts';
import type { Webhook } from '../api/webhook-types.ts';

interface NoticeStore {
  /** Deliveries given up since the GUI opened, newest first. */
  exhausted: DeliveryExhaustedEvent[];
  add(event: DeliveryExhaustedEvent): void;
  dismiss(deliveryId: string): void;
}

const useNotices = create<NoticeStore>((set) => ({
  exhausted: [],
  add: (event) => set((s) => ({ exhausted: [event, ...s.exhausted.filter((e) => e.delivery_id !== event.delivery_id)].slice(0, 20) })),
  dismiss: (deliveryId) => set((s) => ({ exhausted: s.exhausted.filter((e) => e.delivery_id !== deliveryId) })),
}));

/** Collects exhausted deliveries wherever the GUI is, and reloads a webhook disabled automatically. */
export function useWebhookNoticeCollector(): void {
  const queryClient = useQueryClient();
  const add = useNotices((s) => s.add);
  useLiveEvent('delivery.exhausted', add);
  useLiveEvent('webhook.disabled', () => void queryClient.invalidateQueries({ queryKey: ['/api/webhooks'] }));
  useLiveEvent('webhook.disabled', () => void queryClient.invalidateQueries({ queryKey: ['/api/webhooks/uuid/{uuid}'] }));
}

/** A banner per delivery whose retries ran out (of one webhook, or of all), until dismissed. */
export function ExhaustedNotices({ webhookUuid }: { webhookUuid?: string }) {
  const all = useNotices((s) => s.exhausted);
  const dismiss = useNotices((s) => s.dismiss);
  const shown = all.filter((e) => webhookUuid === undefined || e.webhook_uuid === webhookUuid);
  if (shown.length === 0) return null;
  return (
    <div className="webhook-notices">
      {shown.map((e) => (
        <div key={e.delivery_id} className="notice notice-error" role="alert">
          <span>
            <strong>Delivery failed.</strong> A {eventLabel(e.event_type).toLowerCase()} event gave up after {e.attempts}{' '}
            {e.attempts === 1 ? 'attempt' : 'attempts'}: its retries are used up. Fix the endpoint, then redeliver it from{' '}
            <Link to={`/webhooks/${e.webhook_uuid}?delivery=${encodeURIComponent(e.delivery_id)}`}>the delivery log</Link>.
          </span>
          <button type="button" className="button button-small button-quiet" onClick={() => dismiss(e.delivery_id)}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}

/** Why QR Sandbox disabled the webhook, with the way back. */
export function DisabledNotice({ webhook, canEdit, onChanged }: { webhook: Webhook; canEdit: boolean; onChanged(next: Webhook): void }) {
  const request: ApiRequest = { method: 'PATCH', path: webhookPath(webhook.uuid), body: { is_active: true } };
  const enable = useApiAction(async () => onChanged(await call<Webhook>(request)));
  if (!webhook.disabled_reason || webhook.is_active) return null;
  return (
    <div className="notice notice-error webhook-disabled" role="alert">
      <div>
        <strong>Disabled automatically.</strong> {webhook.disabled_reason}
        <ErrorNotice error={enable.error} onDismiss={enable.clearError} />
        <CurlDisclosure request={request} label="Show curl to enable it again" />
      </div>
      {canEdit && (
        <ActionButton action={enable} className="button button-small" busyLabel="Enabling…">
          Enable again
        </ActionButton>
      )}
    </div>
  );
}
