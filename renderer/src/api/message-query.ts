import { getQuery } from './get-query.ts';
import type { Message, Relay } from './inspector-types.ts';

/** One message of an inbox, with its body (GET /api/inboxes/uuid/{uuid}/messages/{message_uuid}). */
export const messageQuery = (inboxUuid: string, messageUuid: string) =>
  getQuery('/api/inboxes/uuid/{uuid}/messages/{message_uuid}', { path: { uuid: inboxUuid, message_uuid: messageUuid } });

/** The message with one more relay (forward or replay), once. */
export function withRelay(message: Message, relay: Relay): Message {
  return message.relays.some((r) => r.uuid === relay.uuid) ? message : { ...message, relays: [...message.relays, relay] };
}
