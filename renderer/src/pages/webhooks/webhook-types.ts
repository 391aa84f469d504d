/**
 * Webhook, delivery, test-event and settings shapes, taken from the server's zod schemas by
 * `import type` only (nothing of the server ends up in the bundle).
 */
import type { z } from 'zod';
import type { simulateResponseSchema } from '../../../../server/confirmations/simulate-schemas.ts';
import type { Settings } from '../../../../server/settings/schemas.ts';
import type { EventType } from '../../../../server/webhooks/events.ts';
import type { RetryScheduleName } from '../../../../server/webhooks/retry-schedule.ts';
import type { Delivery, DeliveryAttempt, Webhook, WebhookWithSecret } from '../../../../server/webhooks/schemas.ts';
import { allOf } from '../../api/types.ts';

export type { Delivery, DeliveryAttempt, EventType, RetryScheduleName, Settings, Webhook, WebhookWithSecret };
export type DeliveryStatus = Delivery['status'];
export type SimulateResponse = z.infer<typeof simulateResponseSchema>;

/** The event catalog, checked against the server's list by the compiler. */
export const EVENT_TYPES = allOf<EventType>()(
  'service_confirmation.check_in',
  'service_confirmation.check_out',
  'service_confirmation.delivery',
);
export const DELIVERY_STATUSES = allOf<DeliveryStatus>()('pending', 'delivered', 'failed');
export const RETRY_SCHEDULES = allOf<RetryScheduleName>()('standard', 'fast');

/**
 * The few fields of a QR code this page shows in its picker. The QR code capability is merged
 * separately; once server/qrcodes/schemas.ts exists, take the type from there.
 */
export interface QrCodeChoice {
  uuid: string;
  name: string | null;
  location: string | null;
}
