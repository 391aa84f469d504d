import { z } from 'zod';
import { eventTypes, simulatedEventTypes, webhookEvents } from './registry.ts';

export const eventMetaSchema = z
  .object({
    type: z.enum(eventTypes),
    short_name: z.string().describe('The name the command line takes (trigger, listen --events, wait --event)'),
    label: z.string().describe('The event in words'),
    description: z.string().describe('What happened, one sentence'),
    sandbox_only: z
      .boolean()
      .describe(
        "QR Sandbox's own event, not sent by the service: only a webhook that lists it gets it, and it is not subscribed to by default",
      ),
    simulated: z.boolean().describe('Whether POST /api/service-confirmations/simulate (and trigger, scenario files) can make one'),
  })
  .meta({ id: 'WebhookEventMeta' });

/** The webhook events as GET /api/meta gives them: the GUI's pickers and words come from here. */
export function eventsMeta(): z.infer<typeof eventMetaSchema>[] {
  return webhookEvents.map((event) => ({
    type: event.type,
    short_name: event.shortName,
    label: event.label,
    description: event.description,
    sandbox_only: event.sandboxOnly,
    simulated: (simulatedEventTypes as readonly string[]).includes(event.type),
  }));
}
