import { z } from 'zod';
import { eventTypes, isEventType, type EventType, unknownEventMessage, webhookEvents } from '../webhook-events/registry.ts';

/** A non-empty list of catalog names; an unknown name is refused with the valid ones listed. */
export const eventListSchema = z
  .array(z.string())
  .min(1, `Subscribe to at least one event: ${eventTypes.join(', ')}.`)
  .superRefine((names, ctx) => {
    names.forEach((name, index) => {
      if (!isEventType(name)) ctx.addIssue({ code: 'custom', path: [index], message: unknownEventMessage(name) });
    });
  })
  .transform((names) => [...new Set(names)] as EventType[]);

/** "Event names: a, b, c; d is QR Sandbox's own (…)": the webhook form fields' description. */
export const eventNamesText = [
  `Event names: ${eventTypes.join(', ')}`,
  ...webhookEvents
    .filter((event) => event.sandboxOnly)
    .map((event) => `${event.type} is QR Sandbox's own (the service does not send it): only a webhook that lists it gets it`),
].join('. ');
