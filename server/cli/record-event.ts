import type { ServiceClient } from '../remote/service-client.ts';
import { StartupError } from '../startup-error.ts';
import { eventTypes, isEventType, type EventType } from '../webhooks/events.ts';
import { call } from './client-command.ts';

export interface RecordedEvent {
  event: { id: string; type: EventType; created_at: string; data: { uuid: string; qr_code_uuid: string } & Record<string, unknown> };
  deliveries: { delivery_id: string; webhook_uuid: string; url: string }[];
}

const SHORT_NAMES = eventTypes.map((t) => t.replace('service_confirmation.', ''));

/** check_in, check_out, delivery, or the full service_confirmation.* name. */
export function toEventType(name: string): EventType {
  const full = name.includes('.') ? name : `service_confirmation.${name}`;
  if (isEventType(full)) return full;
  throw new StartupError(`Unknown event "${name}". Events: ${SHORT_NAMES.join(', ')} (or ${eventTypes.join(', ')}).`);
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
