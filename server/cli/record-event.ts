import type { ServiceClient } from '../remote/service-client.ts';
import { StartupError } from '../startup-error.ts';
import {
  cannotSimulateMessage,
  eventTypeNamed,
  eventTypes,
  type EventType,
  shortNameOf,
  simulatedEventTypes,
} from '../webhook-events/registry.ts';
import { call } from './client-command.ts';

export interface RecordedEvent {
  event: { id: string; type: EventType; created_at: string; data: { uuid: string; qr_code_uuid: string } & Record<string, unknown> };
  deliveries: { delivery_id: string; webhook_uuid: string; url: string }[];
}

const SHORT_NAMES = eventTypes.map(shortNameOf);

/** check_in, qrcode_deleted…, or the full name (service_confirmation.check_in). */
export function toEventType(name: string): EventType {
  const type = eventTypeNamed(name);
  if (type) return type;
  throw new StartupError(`Unknown event "${name}". Events: ${SHORT_NAMES.join(', ')} (or ${eventTypes.join(', ')}).`);
}

/** The short names of the events trigger and scenario files can make. */
export const simulatedShortNames = simulatedEventTypes.map(shortNameOf);
/** "check_in, check_out or delivery". */
export const simulatedNamesText = `${simulatedShortNames.slice(0, -1).join(', ')} or ${simulatedShortNames.at(-1)}`;

/** An event `trigger` and scenario files can make; another is refused with how to cause it. */
export function toSimulatedEventType(name: string): EventType {
  const type = toEventType(name);
  if (!(simulatedEventTypes as readonly string[]).includes(type)) throw new StartupError(cannotSimulateMessage(type));
  return type;
}

/** Records a service confirmation through POST /api/service-confirmations/simulate; the server sends its event. */
export function recordEvent(
  client: ServiceClient,
  organizationUuid: string,
  event: EventType,
  options: { qrCodeUuid?: string | undefined; overrides?: Record<string, unknown> | undefined } = {},
): Promise<RecordedEvent> {
  return call<RecordedEvent>(client, '/api/service-confirmations/simulate', {
    method: 'POST',
    json: {
      organization_uuid: organizationUuid,
      event,
      ...(options.qrCodeUuid ? { qr_code_uuid: options.qrCodeUuid } : {}),
      ...(options.overrides ? { overrides: options.overrides } : {}),
    },
  });
}

export function describeRecorded(recorded: RecordedEvent): string {
  const n = recorded.deliveries.length;
  const to = n === 0 ? 'no webhook subscribed: nothing sent' : `${n} ${n === 1 ? 'delivery' : 'deliveries'}`;
  return `${recorded.event.id}  ${recorded.event.type}  qr_code ${recorded.event.data.qr_code_uuid}  (${to})`;
}

export function recordedJson(recorded: RecordedEvent): Record<string, unknown> {
  return {
    event_id: recorded.event.id,
    event_type: recorded.event.type,
    confirmation_uuid: recorded.event.data.uuid,
    qr_code_uuid: recorded.event.data.qr_code_uuid,
    deliveries: recorded.deliveries,
  };
}
