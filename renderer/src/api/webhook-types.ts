/** Webhook, delivery, test-event and settings shapes, from the generated API types. */
import { allOf, type ResponseOf, type Schemas } from './types.ts';

export type Webhook = Schemas['Webhook'];
export type WebhookWithSecret = Schemas['WebhookWithSecret'];
export type Delivery = Schemas['WebhookDelivery'];
export type DeliveryAttempt = Delivery['attempts'][number];
export type Settings = Schemas['Settings'];
export type RetryScheduleName = Settings['webhook_retry_schedule'];
export type DeliveryStatus = Delivery['status'];
export type SimulateResponse = ResponseOf<'postServiceConfirmationsSimulate', 201>;

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
