/**
 * The webhook events this server sends, each defined once beside what it is about. Everything else
 * (wire format, OpenAPI, outbox, events list, CLI, demo, GET /api/meta) reads them from here.
 */
import { checkInEvent, checkOutEvent, deliveryEvent } from '../confirmations/events.ts';
import { qrCodeDeletedEvent } from '../qrcodes/deleted-event.ts';
import type { EventSummaryFields, WebhookEventDefinition } from './definition.ts';

export const webhookEvents = [checkInEvent, checkOutEvent, deliveryEvent, qrCodeDeletedEvent] as const;

export type EventType = (typeof webhookEvents)[number]['type'];
export const eventTypes = webhookEvents.map((event) => event.type) as [EventType, ...EventType[]];

export function isEventType(name: string): name is EventType {
  return (eventTypes as readonly string[]).includes(name);
}

export function eventDefinition(type: EventType): WebhookEventDefinition {
  const found = webhookEvents.find((event) => event.type === type);
  if (!found) throw new Error(`No webhook event ${type}`);
  return found as WebhookEventDefinition;
}

/** The service's events: what a webhook gets when it does not choose (the sandbox's own are opt-in). */
export const serviceEventTypes = eventTypes.filter((type) => !eventDefinition(type).sandboxOnly);

/** The events POST /api/service-confirmations/simulate (and so trigger, scenarios, the demo) can make. */
export const simulatedEventTypes = eventTypes.filter((type) => eventDefinition(type).simulate) as [EventType, ...EventType[]];

/** "Unknown event …" naming the valid ones: what refuses a name not in the registry. */
export function unknownEventMessage(name: string, valid: readonly string[] = eventTypes): string {
  return `Unknown event "${name}". Valid events: ${valid.join(', ')}.`;
}

/** A full type or a short name (check_in) as its type; undefined when neither. */
export function eventTypeNamed(name: string): EventType | undefined {
  if (isEventType(name)) return name;
  return webhookEvents.find((event) => event.shortName === name)?.type;
}

export function shortNameOf(type: string): string {
  return webhookEvents.find((event) => event.type === type)?.shortName ?? type;
}

const EMPTY_SUMMARY: EventSummaryFields = { qr_code_uuid: null, service: null, location: null, worker: null };

/** What the events list (and `wait --qr-code`) reads of an envelope: its event's summary; nothing for one not of the registry. */
export function summaryOfEnvelope(envelope: unknown): EventSummaryFields {
  if (typeof envelope !== 'object' || envelope === null) return EMPTY_SUMMARY;
  const { type, data } = envelope as { type?: unknown; data?: unknown };
  if (typeof type !== 'string' || !isEventType(type)) return EMPTY_SUMMARY;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return EMPTY_SUMMARY;
  try {
    return eventDefinition(type).summary(data);
  } catch {
    return EMPTY_SUMMARY; // an envelope edited by hand (an inbox message re-sealed) may not have the event's shape
  }
}

/** The summary of a stored envelope's JSON; an unreadable one shows nothing more than its type. */
export function summaryOf(envelopeJson: string): EventSummaryFields {
  try {
    return summaryOfEnvelope(JSON.parse(envelopeJson));
  } catch {
    return EMPTY_SUMMARY;
  }
}

/** Why POST /api/service-confirmations/simulate (trigger, a scenario) refuses a name: unknown, or an event it cannot make. */
export function cannotSimulateMessage(name: unknown): string {
  if (typeof name !== 'string') return `Give an event: ${simulatedEventTypes.join(', ')}.`;
  const known = eventTypeNamed(name);
  const howTo = known && eventDefinition(known).howToCause;
  if (howTo) return `${known} cannot be simulated. ${howTo}`;
  return unknownEventMessage(name, simulatedEventTypes);
}
