import { z } from 'zod';
import { cannotSimulateMessage } from '../webhook-events/registry.ts';
import { confirmationEventTypes } from './events.ts';
import { envelopeSchema } from '../wire-format/schemas.ts';
import { createConfirmationBodySchema } from './schemas.ts';

export const simulateBodySchema = z.strictObject({
  organization_uuid: z.string().min(1),
  event: z.enum(confirmationEventTypes, { error: (issue) => cannotSimulateMessage(issue.input) }),
  qr_code_uuid: z.string().min(1).optional().describe('Default: a QR code of the organization, or a demo one created for the purpose'),
  overrides: createConfirmationBodySchema
    .omit({ organization_uuid: true, qr_code_uuid: true, status: true })
    .optional()
    .describe('Fields of the confirmation to set instead of generating them (the fields of POST /api/service-confirmations)'),
});
export type SimulateBody = z.infer<typeof simulateBodySchema>;

export const simulateResponseSchema = z.object({
  event: envelopeSchema.describe('The plaintext envelope every subscribed webhook receives, encrypted'),
  deliveries: z
    .array(z.object({ delivery_id: z.string(), webhook_uuid: z.string(), url: z.string() }))
    .describe('One per active subscribed webhook'),
});
