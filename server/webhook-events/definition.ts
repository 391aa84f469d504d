import type { z } from 'zod';

/** What the events list (GET /api/events) shows of an event beside its type and time. */
export interface EventSummaryFields {
  qr_code_uuid: string | null;
  service: string | null;
  location: string | null;
  worker: string | null;
}

/**
 * One webhook event, everything about it in one place: the registry (registry.ts) serves it to the
 * wire format, the OpenAPI document, the outbox, the events list, the CLI, the demo and the GUI (GET /api/meta).
 */
export interface WebhookEventDefinition<Type extends string = string, Data = unknown> {
  /** The envelope's `type`. */
  type: Type;
  /** The name `trigger`, `listen --events`, `wait --event` and scenario files take besides the full type. */
  shortName: string;
  /** The event in words ("Check-in"). */
  label: string;
  /** What happened, one sentence (the GUI's webhook form). */
  description: string;
  /** The envelope's `data`, and the envelope's name in the OpenAPI document. */
  data: z.ZodType<Data>;
  envelopeSchemaId: string;
  /**
   * The service does not send it (docs/webhooks.md): only a webhook that lists it gets it, it is not
   * among the events a webhook gets by default, and it is marked as the sandbox's wherever it is listed.
   */
  sandboxOnly: boolean;
  /** What the events list shows of it. */
  summary(data: Data): EventSummaryFields;
  /**
   * Whether `POST /api/service-confirmations/simulate` (and so `trigger`, scenario files and the GUI's test
   * event) can make one; `sameQrCodeAs` makes the demo stream send it at the QR code of that event's last one.
   * Absent: made only by what the event is about (the sandbox says how when asked to trigger it).
   */
  simulate?: { demo: boolean; sameQrCodeAs?: string };
  /** How to make one when it cannot be simulated (the CLI's and the API's answer). */
  howToCause?: string;
}

export function defineWebhookEvent<const Type extends string, Data>(
  definition: WebhookEventDefinition<Type, Data>,
): WebhookEventDefinition<Type, Data> {
  return definition;
}
