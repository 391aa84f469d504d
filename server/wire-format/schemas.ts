import { z } from 'zod';
import { SANDBOX_EXTENSION } from '../http/sandbox-only.ts';
import type { WebhookEventDefinition } from '../webhook-events/definition.ts';
import { webhookEvents } from '../webhook-events/registry.ts';

const envelopeOf = <T extends string>(event: WebhookEventDefinition<T>) =>
  z
    .object({
      id: z.string().describe('evt_ followed by a UUID'),
      type: z.literal(event.type),
      created_at: z.string().describe('ISO 8601 UTC with milliseconds'),
      data: event.data,
    })
    .meta({
      id: event.envelopeSchemaId,
      ...(event.sandboxOnly
        ? { description: `${event.description} Only a webhook that lists ${event.type} gets it.`, [SANDBOX_EXTENSION]: true }
        : {}),
    });

type Variant = ReturnType<typeof envelopeOf>;
const variants = webhookEvents.map(envelopeOf) as [Variant, ...Variant[]];

/** The plaintext of every webhook delivery, one variant per event of the registry. */
export const envelopeSchema = z.discriminatedUnion('type', variants).meta({
  id: 'EventEnvelope',
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(webhookEvents.map((event) => [event.type, `#/components/schemas/${event.envelopeSchemaId}`])),
  },
});

/** The body of a delivery; payload decrypts to an EventEnvelope. */
export const deliveryBodySchema = z
  .object({ payload: z.string().describe('base64 of IV (16 bytes) + AES-256-CBC ciphertext of the EventEnvelope JSON') })
  .meta({ id: 'WebhookDeliveryBody' });
