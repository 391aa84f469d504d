import type { BackgroundTask } from '../api/types.ts';
import type { MessageSummary, RelayEvent } from '../pages/inspector/inspector-types.ts';

/**
 * The data of each live event type the GUI listens to (GET /api/live). A capability that
 * publishes a new type (delivery.attempt, inbox.message…) adds it here with its data type.
 */
export interface LiveEventData {
  'task.progress': BackgroundTask;
  'task.finished': BackgroundTask;
  'inbox.message': MessageSummary;
  'inbox.relay': RelayEvent;
}

export type LiveEventType = keyof LiveEventData;
