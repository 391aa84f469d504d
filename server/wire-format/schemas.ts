import { z } from 'zod';
import { serviceConfirmationSchema } from '../confirmations/schemas.ts';
import { eventTypes } from '../webhooks/events.ts';

const eventOf = <T extends (typeof eventTypes)[number]>(type: T, id: string) =>
  z
    .object({
      id: z.string().describe('evt_ followed by a UUID'),
      type: z.literal(type),
      created_at: z.string().describe('ISO 8601 UTC with milliseconds'),
      data: serviceConfirmationSchema,
    })
    .meta({ id });

/** The plaintext of every webhook delivery, one variant per event of the catalog. */
export const envelopeSchema = z
  .discriminatedUnion('type', [
    eventOf('service_confirmation.check_in', 'CheckInEvent'),
    eventOf('service_confirmation.check_out', 'CheckOutEvent'),
    eventOf('service_confirmation.delivery', 'DeliveryEvent'),
  ])
  .meta({
    id: 'EventEnvelope',
    discriminator: {
      propertyName: 'type',
      mapping: {
        'service_confirmation.check_in': '#/components/schemas/CheckInEvent',
        'service_confirmation.check_out': '#/components/schemas/CheckOutEvent',
        'service_confirmation.delivery': '#/components/schemas/DeliveryEvent',
      },
    },
  });

/** The body of a delivery; payload decrypts to an EventEnvelope. */
export const deliveryBodySchema = z
  .object({ payload: z.string().describe('base64 of IV (16 bytes) + AES-256-CBC ciphertext of the EventEnvelope JSON') })
  .meta({ id: 'WebhookDeliveryBody' });
