import { writeNow } from '../db/write-now.ts';
import type { EventType } from '../webhook-events/registry.ts';
import { announceEvent, type OutboxDeps, type QueuedEvent, queueEvent } from './outbox.ts';

/** An event a write produces: its type, its data, and the data's JSON when the write has it already. */
export interface EmittedEvent<T> {
  type: EventType;
  data: T;
  dataJson?: string;
}

/**
 * The one way an event is sent: `write` changes the record the event is about and returns the event;
 * it runs in one synchronous transaction with the event and its deliveries (the outbox), so both
 * exist or neither does; after the commit the dispatcher wakes and the GUI is told. Answers the
 * queued event, or undefined when nothing was queued (a sandbox-only event no webhook subscribes to).
 */
export async function emitEvent<T>(
  deps: OutboxDeps,
  organizationUuid: string,
  write: () => EmittedEvent<T>,
): Promise<QueuedEvent<T> | undefined> {
  const queued = await writeNow(deps.db, () => {
    const event = write();
    return queueEvent(deps.db, organizationUuid, event.type, event.data, event.dataJson);
  });
  if (queued) announceEvent(deps, organizationUuid, queued);
  return queued;
}
