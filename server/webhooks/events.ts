import { z } from 'zod';

/** The event catalog of docs/webhooks.md. */
export const eventTypes = ['service_confirmation.check_in', 'service_confirmation.check_out', 'service_confirmation.delivery'] as const;
export type EventType = (typeof eventTypes)[number];

export function isEventType(name: string): name is EventType {
  return (eventTypes as readonly string[]).includes(name);
}

/** A non-empty list of catalog names; an unknown name is refused with the valid ones listed. */
export const eventListSchema = z
  .array(z.string())
  .min(1, `Subscribe to at least one event: ${eventTypes.join(', ')}.`)
  .superRefine((names, ctx) => {
    names.forEach((name, index) => {
      if (!isEventType(name)) {
        ctx.addIssue({ code: 'custom', path: [index], message: `Unknown event "${name}". Valid events: ${eventTypes.join(', ')}.` });
      }
    });
  })
  .transform((names) => [...new Set(names)] as EventType[]);
