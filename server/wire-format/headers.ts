import { APP_VERSION } from '../version.ts';

/** The one header of a delivery the service documents (besides Content-Type). */
export const SIGNATURE_HEADER = 'X-Service-Signature';

/**
 * The sandbox's own diagnostics, sent only to a webhook that asks for them (sandbox_diagnostics):
 * the service sends nothing like them, so a receiver must not depend on them.
 */
export const SANDBOX_EVENT_HEADER = 'X-Sandbox-Event';
export const SANDBOX_DELIVERY_ID_HEADER = 'X-Sandbox-Delivery-Id';
export const SANDBOX_ATTEMPT_HEADER = 'X-Sandbox-Attempt';

/** Names the sender; the transport's own, like Host and Content-Length. */
export const USER_AGENT = `QR-Sandbox-Webhooks/${APP_VERSION}`;

export interface DeliveryDiagnostics {
  eventType: string;
  deliveryId: string;
  attempt: number;
}

/**
 * The headers of one attempt: Content-Type and the signature, as the service sends them (no
 * Authorization, the signature authenticates), plus the sandbox's diagnostics when asked for.
 */
export function deliveryHeaders(signatureHeader: string, diagnostics: DeliveryDiagnostics | null = null): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    [SIGNATURE_HEADER]: signatureHeader,
    ...(diagnostics
      ? {
          [SANDBOX_EVENT_HEADER]: diagnostics.eventType,
          [SANDBOX_DELIVERY_ID_HEADER]: diagnostics.deliveryId,
          [SANDBOX_ATTEMPT_HEADER]: String(diagnostics.attempt),
        }
      : {}),
    'User-Agent': USER_AGENT,
  };
}
