import { z } from 'zod';

/** One update for GUI clients, e.g. task.progress, task.finished, delivery.attempt, inbox.message. */
export const liveEventSchema = z.object({
  type: z.string(),
  organization_uuid: z.string(),
  data: z.unknown(),
});
export type LiveEvent = z.infer<typeof liveEventSchema>;
