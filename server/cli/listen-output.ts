/** What `qr-sandbox listen` prints: the ready line, then each delivery and each forward as they come. */
import type { Message, Relay } from '../receiver/schemas.ts';
import type { ServiceClient } from '../remote/service-client.ts';
import type { EventType } from '../webhooks/events.ts';
import type { Values } from './command.ts';
import { call, emit } from './client-command.ts';
import { LISTEN_INBOX_NAME, type Listening } from './listen-setup.ts';
import type { LiveMessage } from './live-stream.ts';

export function printReady(values: Values, listening: Listening, events: EventType[]): void {
  const { inbox, webhook } = listening;
  emit(
    values,
    {
      ready: true,
      webhook_uuid: webhook.uuid,
      secret: webhook.secret,
      inbox_uuid: inbox.uuid,
      inbox_url: inbox.url,
      events,
      forward_to: inbox.forward_to,
      reused: !listening.createdWebhook || !listening.createdInbox,
    },
    `Ready. Webhook ${webhook.uuid} secret ${webhook.secret} -> inbox ${inbox.uuid}${inbox.forward_to ? ` -> ${inbox.forward_to}` : ''}`,
  );
  process.stderr.write(
    `Listening for ${events.join(', ')}${listening.createdInbox ? '' : ` (reusing the inbox "${LISTEN_INBOX_NAME}")`}. Ctrl+C removes what it registered.\n`,
  );
}

/** Event ids of the messages printed, so a forward line can name its event. */
const eventOfMessage = new Map<string, string | null>();

async function printMessage(values: Values, client: ServiceClient, inboxUuid: string, messageUuid: string): Promise<void> {
  const message = await call<Message>(client, `/api/inboxes/uuid/${inboxUuid}/messages/${messageUuid}`);
  const envelope = message.envelope as { data?: unknown } | null;
  const data = envelope && 'data' in envelope ? envelope.data : envelope;
  eventOfMessage.set(message.uuid, message.event_id);
  const duplicate = message.duplicate_of ? ` (duplicate of ${message.duplicate_of} by ${message.duplicate_by})` : '';
  emit(
    values,
    {
      type: 'delivery',
      message_uuid: message.uuid,
      received_on: message.received_on,
      event_id: message.event_id,
      event_type: message.event_type,
      delivery_id: message.delivery_id,
      signature: message.signature_status,
      decrypted: message.decrypted,
      duplicate_of: message.duplicate_of,
      data,
    },
    `${message.received_on}  ${message.event_id ?? '(no event id)'}  ${message.event_type ?? '(not decrypted)'}  signature ${message.signature_status}${duplicate}  ${
      message.decrypted ? JSON.stringify(data) : (message.decryption_error ?? '')
    }`,
  );
}

function printRelay(values: Values, messageUuid: string, relay: Relay): void {
  const outcome = relay.status_code === null ? `no answer: ${relay.error ?? 'unknown'}` : `${relay.status_code} in ${relay.duration_ms} ms`;
  const eventId = eventOfMessage.get(messageUuid) ?? null;
  eventOfMessage.delete(messageUuid);
  emit(
    values,
    {
      type: 'forward',
      message_uuid: messageUuid,
      event_id: eventId,
      url: relay.url,
      status_code: relay.status_code,
      duration_ms: relay.duration_ms,
      error: relay.error,
    },
    `  -> ${eventId ?? messageUuid} forwarded to ${relay.url}: ${outcome}`,
  );
}

/** Prints the inbox's messages and forwards from the live stream, one at a time in the order they came. */
export function inboxPrinter(
  values: Values,
  client: ServiceClient,
  inboxUuid: string,
): { onLive(live: LiveMessage): void; drained(): Promise<void> } {
  let queue = Promise.resolve();
  return {
    onLive(live) {
      const data = live.data as ({ inbox_uuid?: unknown; uuid?: unknown; message_uuid?: unknown; kind?: unknown } & Relay) | null;
      if (!data || data.inbox_uuid !== inboxUuid) return;
      if (live.type === 'inbox.message' && typeof data.uuid === 'string') {
        const messageUuid = data.uuid;
        queue = queue
          .then(() => printMessage(values, client, inboxUuid, messageUuid))
          .catch((error: unknown) => {
            process.stderr.write(`Could not read message ${messageUuid}: ${(error as Error).message}\n`);
          });
      } else if (live.type === 'inbox.relay' && data.kind === 'forward' && typeof data.message_uuid === 'string') {
        const messageUuid = data.message_uuid;
        queue = queue.then(() => printRelay(values, messageUuid, data));
      }
    },
    drained: () => queue,
  };
}
