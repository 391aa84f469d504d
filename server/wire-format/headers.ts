import { APP_VERSION } from '../version.ts';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_HEADER = 'X-Service-Event';
export const DELIVERY_ID_HEADER = 'X-Service-Delivery-Id';
export const ATTEMPT_HEADER = 'X-Service-Attempt';

export interface DeliveryHeaderValues {
  /** `sha256=<hex>`, from seal(). */
  signatureHeader: string;
  eventType: string;
  deliveryId: string;
  attempt: number;
}

/** The headers of one attempt; no Authorization, the signature authenticates. */
export function deliveryHeaders(values: DeliveryHeaderValues): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    [SIGNATURE_HEADER]: values.signatureHeader,
    [EVENT_HEADER]: values.eventType,
    [DELIVERY_ID_HEADER]: values.deliveryId,
    [ATTEMPT_HEADER]: String(values.attempt),
    'User-Agent': `QR-Sandbox-Webhooks/${APP_VERSION}`,
  };
}
