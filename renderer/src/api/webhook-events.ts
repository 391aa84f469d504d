/** The webhook events as the server describes them (GET /api/meta `events`): every picker and label reads them here. */
import type { AppMeta, BodyOf } from './types.ts';

export type EventMeta = AppMeta['events'][number];
export type EventType = EventMeta['type'];
/** An event POST /api/service-confirmations/simulate makes (the test-event pickers). */
export type SimulatedEventType = BodyOf<'postServiceConfirmationsSimulate'>['event'];

let known: EventMeta[] = [];

/** Keeps the server's events (meta.ts does, whenever it loads GET /api/meta). */
export function rememberEvents(events: readonly EventMeta[]): void {
  known = [...events];
}

/** Every event the server sends, in its order. */
export const webhookEvents = (): EventMeta[] => known;

/** The events a webhook gets unless it chooses: the service's (the sandbox's own are opt-in). */
export const serviceEventTypes = (): EventType[] => known.filter((event) => !event.sandbox_only).map((event) => event.type);

/** The events a test event can be: those the simulate endpoint makes. */
export const simulatedEventTypes = (): SimulatedEventType[] =>
  known.filter((event) => event.simulated).map((event) => event.type as SimulatedEventType);

export const eventMetaOf = (type: string): EventMeta | undefined => known.find((event) => event.type === type);

/** "Check-in" for service_confirmation.check_in; an event this GUI does not know by its name; "—" for none. */
export function eventLabel(type: string | null): string {
  if (type === null) return '—';
  return eventMetaOf(type)?.label ?? type;
}

/** The test-event pickers' first choice; the Shell loads GET /api/meta before any page shows. */
export function firstSimulatedEventType(): SimulatedEventType {
  const first = simulatedEventTypes()[0];
  if (!first) throw new Error(`This server's webhook events are not loaded yet (GET /api/meta); try again in a moment.`);
  return first;
}
