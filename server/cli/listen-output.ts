/**
 * What `qr-sandbox listen` prints: the ready line, then one line per attempt of its webhook, read
 * from the sandbox's own records (the delivery log and the inbox message the attempt became): its
 * number, the fault a rule injected, your app's answer, and what the sender does next.
 */
import type { Message } from '../receiver/schemas.ts';
import type { ServiceClient } from '../remote/service-client.ts';
import { type EventType, shortNameOf } from '../webhook-events/registry.ts';
import type { Delivery, DeliveryAttempt } from '../webhooks/schemas.ts';
import { SIGNATURE_HEADER } from '../wire-format/headers.ts';
import type { Values } from './command.ts';
import { call, emit } from './client-command.ts';
import type { Listening } from './listen-setup.ts';
import type { LiveMessage } from './live-stream.ts';

/** Longest piece of free text (an error, a body excerpt) on a line for people. */
const TEXT_CHARS = 90;

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
      reused: !listening.created,
    },
    `Ready. Webhook ${webhook.uuid} secret ${webhook.secret} -> inbox ${inbox.uuid}${inbox.forward_to ? ` -> ${inbox.forward_to}` : ''}`,
  );
}

/** The live stream's account of one attempt (server/webhooks/dispatcher.ts). */
interface AttemptEvent {
  webhook_uuid: string;
  delivery_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  attempted_on: string;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  status: 'pending' | 'delivered' | 'failed';
  next_attempt_on: string | null;
}

interface Page<T> {
  items: T[];
  pages: number;
}

const short = (text: string | null | undefined): string => {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > TEXT_CHARS ? `${flat.slice(0, TEXT_CHARS - 1)}…` : flat;
};
const clock = (iso: string): string => iso.slice(11, 19);
const eventName = (type: string | null): string => (type === null ? '?' : shortNameOf(type));

async function findAttempt(client: ServiceClient, organizationUuid: string, event: AttemptEvent): Promise<DeliveryAttempt | null> {
  // Newest first: the delivery of a fresh attempt is on the first page, a retry of an older one a few pages on.
  for (let page = 1; page <= 10; page++) {
    const answer = await call<Page<Delivery>>(
      client,
      `/api/webhooks/uuid/${event.webhook_uuid}/deliveries?organization_uuid=${organizationUuid}&per_page=100&page=${page}`,
    );
    const delivery = answer.items.find((d) => d.delivery_id === event.delivery_id);
    if (delivery) return delivery.attempts.find((a) => a.attempt === event.attempt) ?? null;
    if (page >= answer.pages) return null;
  }
  return null;
}

/** The inspector's message of this attempt: named by the inbox's answer header, else found by its signature. */
async function findMessage(
  client: ServiceClient,
  organizationUuid: string,
  inboxUuid: string,
  attempt: DeliveryAttempt | null,
): Promise<Message | null> {
  const named = attempt?.response_headers?.['x-inbox-message-uuid'];
  const signature = attempt?.request_headers?.[SIGNATURE_HEADER];
  let uuid = named;
  if (!uuid && signature) {
    const recent = await call<Page<Message>>(
      client,
      `/api/inboxes/uuid/${inboxUuid}/messages?organization_uuid=${organizationUuid}&per_page=50`,
    );
    uuid = recent.items.find((m) => m.headers[SIGNATURE_HEADER.toLowerCase()] === signature)?.uuid;
  }
  return uuid ? call<Message>(client, `/api/inboxes/uuid/${inboxUuid}/messages/${uuid}`) : null;
}

/** "fault: rule 1 answered 503", "app 500 in 3 ms", "inbox 200": who answered the attempt, and how. */
function answerText(event: AttemptEvent, message: Message | null): string {
  const answer = message?.answer;
  const relay = message?.relays.findLast((r) => r.kind === 'forward');
  const rule = answer?.rule ? `rule ${answer.rule}` : 'fault';
  switch (answer?.kind) {
    case 'fault_status':
      return `fault: ${rule} answered ${answer.status ?? '?'}, app not called`;
    case 'dropped':
      return `fault: ${rule} dropped the connection, app not called`;
    case 'forwarded':
      return `app ${answer.status ?? '?'} in ${relay?.duration_ms ?? '?'} ms`;
    case 'forward_failed':
      return `app gave no answer: ${short(relay?.error)}`;
    case 'client_gone':
      return relay && relay.status_code === null && relay.error === null ? 'app still answering' : `app ${relay?.status_code ?? '-'}`;
    case 'ok':
    case 'rejected':
    case 'too_large':
      return `inbox ${answer.status}${answer.rule ? ` after ${rule}'s delay` : ''}`;
    default:
      return event.status_code === null ? 'no answer' : `answered ${event.status_code}`;
  }
}

function nextText(event: AttemptEvent): string {
  if (event.status === 'delivered') return 'delivered';
  const why = event.status_code === null || event.status_code < 300 ? `: ${short(event.error)}` : '';
  if (event.status === 'failed') return `failed, no more retries${why}`;
  return `retry at ${event.next_attempt_on ? clock(event.next_attempt_on) : '?'}${why}`;
}

async function printAttempt(values: Values, client: ServiceClient, organizationUuid: string, inboxUuid: string, event: AttemptEvent) {
  const attempt = await findAttempt(client, organizationUuid, event);
  const message = await findMessage(client, organizationUuid, inboxUuid, attempt);
  const envelope = message?.envelope as { data?: unknown } | null | undefined;
  const signature = message ? `signature ${message.signature_status}` : 'not received';
  emit(
    values,
    {
      type: 'attempt',
      webhook_uuid: event.webhook_uuid,
      delivery_id: event.delivery_id,
      event_id: event.event_id,
      event_type: event.event_type,
      attempt: event.attempt,
      attempted_on: event.attempted_on,
      status_code: event.status_code,
      duration_ms: event.duration_ms,
      error: event.error,
      delivery_status: event.status,
      next_attempt_on: event.next_attempt_on,
      fault: message?.answer.rule ? { rule: message.answer.rule, kind: message.answer.kind, status: message.answer.status } : null,
      app: message?.relays.findLast((r) => r.kind === 'forward') ?? null,
      signature: message?.signature_status ?? null,
      data: envelope && typeof envelope === 'object' && 'data' in envelope ? envelope.data : null,
      message,
    },
    `${clock(event.attempted_on)}  ${eventName(event.event_type)}  ${event.event_id}  #${event.attempt}  ${answerText(event, message)}  ${nextText(event)}  ${signature}`,
  );
}

/** Follows the live stream: one line per attempt of the webhook, one at a time in the order they came. */
export function attemptPrinter(
  values: Values,
  client: ServiceClient,
  organizationUuid: string,
  listening: () => Listening,
  onReplaced: () => void,
): { onLive(live: LiveMessage): void; drained(): Promise<void> } {
  let queue = Promise.resolve();
  return {
    onLive(live) {
      if (live.type === 'organization.replaced') {
        onReplaced();
        return;
      }
      const data = live.data as AttemptEvent | null;
      if (live.type !== 'delivery.attempt' || data?.webhook_uuid !== listening().webhook.uuid) return;
      const inboxUuid = listening().inbox.uuid;
      queue = queue
        .then(() => printAttempt(values, client, organizationUuid, inboxUuid, data))
        .catch((error: unknown) => {
          process.stderr.write(`Could not read attempt ${data.attempt} of ${data.delivery_id}: ${(error as Error).message}\n`);
        });
    },
    drained: () => queue,
  };
}
