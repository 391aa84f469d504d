import type { ServiceClient } from '../remote/service-client.ts';
import type { Message, Relay } from '../receiver/schemas.ts';
import { StartupError } from '../startup-error.ts';
import { eventTypes, type EventType } from '../webhooks/events.ts';
import type { Command, Values } from './command.ts';
import { call, clientHelp, clientOptions, emit, EXIT } from './client-command.ts';
import { organizationOf, resolveTarget } from './connection.ts';
import { LISTEN_INBOX_NAME, setUpListening, tearDown, type Listening } from './listen-setup.ts';
import { openLiveStream, type LiveMessage } from './live-stream.ts';
import { toEventType } from './record-event.ts';

function parseEvents(given: unknown): EventType[] {
  if (typeof given !== 'string') return [...eventTypes];
  const names = given
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new StartupError('--events needs at least one event, e.g. --events check_in,check_out');
  return [...new Set(names.map(toEventType))];
}

function checkForwardUrl(given: unknown): string | null {
  if (typeof given !== 'string') return null;
  try {
    const url = new URL(given);
    if (url.protocol === 'http:' || url.protocol === 'https:') return given;
  } catch {
    // said below
  }
  throw new StartupError(
    `--forward-to must be the http(s) URL of your app's webhook endpoint, e.g. http://localhost:3000/webhooks, not "${given}".`,
  );
}

function printReady(values: Values, listening: Listening, events: EventType[]): void {
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

/** Resolves with the signal's name on Ctrl+C or SIGTERM. */
function stopSignal(): { stopped: Promise<string>; dispose(): void } {
  let dispose = () => {};
  const stopped = new Promise<string>((resolve) => {
    const onInt = () => resolve('SIGINT');
    const onTerm = () => resolve('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    dispose = () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
  });
  return { stopped, dispose: () => dispose() };
}

export const listenCommand: Command = {
  name: 'listen',
  summary: 'Register a webhook to a local inbox, print each delivery as it arrives, optionally forward it to your app; Ctrl+C removes it.',
  usage: 'listen [--forward-to URL] [--events check_in,check_out,delivery] [--json]',
  errorExitStatus: EXIT.error,
  options: { 'forward-to': { type: 'string' }, events: { type: 'string' }, ...clientOptions },
  help: {
    'forward-to': "Your app's webhook URL: each delivery is sent there as the service sends it (same headers and signed, encrypted body)",
    events: 'Events to subscribe to, comma-separated. Default all: check_in,check_out,delivery',
    ...clientHelp,
  },
  examples: [
    'qr-sandbox listen',
    'qr-sandbox listen --forward-to http://localhost:3000/webhooks --events check_in,check_out',
    'qr-sandbox listen --json | jq -c \'select(.type == "delivery") | .data.note\'',
  ],
  async run(values) {
    const events = parseEvents(values.events);
    const forwardTo = checkForwardUrl(values['forward-to']);
    const target = await resolveTarget(values);
    const organization = await organizationOf(target);
    const signal = stopSignal();
    const listening = await setUpListening(target.client, organization, events, forwardTo);
    let queue = Promise.resolve();
    const inboxUuid = listening.inbox.uuid;
    const onLive = (live: LiveMessage) => {
      const data = live.data as ({ inbox_uuid?: unknown; uuid?: unknown; message_uuid?: unknown; kind?: unknown } & Relay) | null;
      if (!data || data.inbox_uuid !== inboxUuid) return;
      if (live.type === 'inbox.message' && typeof data.uuid === 'string') {
        const messageUuid = data.uuid;
        queue = queue
          .then(() => printMessage(values, target.client, inboxUuid, messageUuid))
          .catch((error: unknown) => {
            process.stderr.write(`Could not read message ${messageUuid}: ${(error as Error).message}\n`);
          });
      } else if (live.type === 'inbox.relay' && data.kind === 'forward' && typeof data.message_uuid === 'string') {
        const messageUuid = data.message_uuid;
        queue = queue.then(() => printRelay(values, messageUuid, data));
      }
    };
    let outcome: string | Error | null;
    try {
      const stream = await openLiveStream(target.client, onLive).catch(async (error: unknown) => {
        await tearDown(target.client, listening).catch(() => undefined);
        throw error;
      });
      printReady(values, listening, events);
      outcome = await Promise.race([signal.stopped, stream.ended]);
      stream.close();
      await queue;
    } finally {
      signal.dispose();
    }
    if (outcome instanceof Error) {
      process.stderr.write(
        `${outcome.message} Stopped listening; the webhook and inbox stay until a listen on a running server reuses them.\n`,
      );
      return EXIT.error;
    }
    const removed = await tearDown(target.client, listening);
    process.stderr.write(removed.length > 0 ? `Removed ${removed.join(' and ')}.\n` : 'Left the reused webhook and inbox in place.\n');
    return EXIT.ok;
  },
};
