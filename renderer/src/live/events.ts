import type { BackgroundTask } from '../api/types.ts';
import type { Delivery, DeliveryAttempt } from '../api/webhook-types.ts';

/** One finished attempt of a webhook delivery, with the delivery's state after it. */
export type DeliveryAttemptEvent = DeliveryAttempt &
  Pick<Delivery, 'webhook_uuid' | 'delivery_id' | 'event_id' | 'event_type' | 'status' | 'next_attempt_on'>;
import type { MessageSummary, RelayEvent } from '../api/inspector-types.ts';

/** A delivery given up after its schedule's last attempt. */
export type DeliveryExhaustedEvent = Pick<Delivery, 'webhook_uuid' | 'delivery_id' | 'event_id' | 'event_type' | 'status_reason'> & {
  attempts: number;
};

/** A webhook QR Sandbox disabled after it failed continuously. */
export interface WebhookDisabledEvent {
  webhook_uuid: string;
  url: string;
  disabled_reason: string;
}

/** Data of the `demo.reset` live event: a step of a reset (`progress`: the step's own percentage), or its end. */
export interface DemoResetEvent {
  step: number;
  of: number;
  label: string;
  progress?: number;
  done?: boolean;
}

/**
 * The data of each live event type the GUI listens to (GET /api/live). A capability that
 * publishes a new type (delivery.attempt, inbox.message…) adds it here with its data type.
 */
export interface LiveEventData {
  'task.created': BackgroundTask;
  'task.progress': BackgroundTask;
  'task.removed': Pick<BackgroundTask, 'uuid'>;
  'task.finished': BackgroundTask;
  'delivery.attempt': DeliveryAttemptEvent;
  'delivery.queued': Pick<Delivery, 'webhook_uuid' | 'delivery_id'>;
  'delivery.exhausted': DeliveryExhaustedEvent;
  'webhook.disabled': WebhookDisabledEvent;
  'webhook.event': { event_id: string; event_type: string; deliveries: number };
  'inbox.message': MessageSummary;
  'inbox.relay': RelayEvent;
  'demo.reset': DemoResetEvent;
  /** A snapshot was restored or the organization emptied: everything shown is to be read again. */
  'organization.replaced': { action: 'restore' | 'reset'; name?: string };
}

export type LiveEventType = keyof LiveEventData;
