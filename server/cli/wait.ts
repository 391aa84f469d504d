import { summaryOfEnvelope } from '../webhook-events/registry.ts';
import { countOf } from '../../common/count-words.ts';
import type { MessageListItem } from '../receiver/schemas.ts';
import { StartupError } from '../startup-error.ts';
import type { Command, Values } from './command.ts';
import { clientHelp, clientOptions, countOption, emit } from './client-command.ts';
import { EXIT } from './exit-codes.ts';
import { followInbox } from './inbox-follow.ts';
import { organizationOf, resolveTarget } from './connection.ts';
import { findListenInbox, LISTEN_INBOX_NAME } from './listen-setup.ts';
import { toEventType } from './record-event.ts';
import type { ServiceClient } from '../remote/service-client.ts';

const SIGNATURES = ['valid', 'invalid', 'unknown'] as const;
export const DEFAULT_WAIT_TIMEOUT_S = 30;

interface Wanted {
  eventType: string | undefined;
  qrCodeUuid: string | undefined;
  signature: string | undefined;
}

/** The QR code the message's event is about, as its definition says (a confirmation's, a deleted QR code…). */
function qrCodeOf(message: MessageListItem): string | undefined {
  return summaryOfEnvelope(message.envelope).qr_code_uuid ?? undefined;
}

function matches(message: MessageListItem, wanted: Wanted): boolean {
  return (
    (wanted.eventType === undefined || message.event_type === wanted.eventType) &&
    (wanted.signature === undefined || message.signature_status === wanted.signature) &&
    (wanted.qrCodeUuid === undefined || qrCodeOf(message) === wanted.qrCodeUuid)
  );
}

function describeWanted(wanted: Wanted, count: number): string {
  const parts = [wanted.eventType ? `${count} ${wanted.eventType}` : countOf(count, 'delivery of any event', 'deliveries of any event')];
  if (wanted.qrCodeUuid) parts.push(`at QR code ${wanted.qrCodeUuid}`);
  if (wanted.signature) parts.push(`with a ${wanted.signature} signature`);
  return parts.join(' ');
}

/** "2 service_confirmation.check_in (valid), 1 service_confirmation.delivery (invalid)". */
function describeArrived(messages: MessageListItem[]): string {
  if (messages.length === 0) return 'nothing arrived';
  const counts = new Map<string, number>();
  for (const m of messages) {
    const key = `${m.event_type ?? 'undecrypted'} (signature ${m.signature_status}${qrCodeOf(m) ? `, qr_code ${qrCodeOf(m)}` : ''})`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return `arrived: ${[...counts].map(([key, n]) => `${n} ${key}`).join(', ')}`;
}

function printMatch(values: Values, message: MessageListItem): void {
  emit(
    values,
    {
      type: 'delivery',
      message_uuid: message.uuid,
      event_id: message.event_id,
      event_type: message.event_type,
      signature: message.signature_status,
      qr_code_uuid: qrCodeOf(message) ?? null,
      received_on: message.received_on,
    },
    `${message.event_id ?? '(no event id)'}  ${message.event_type ?? '(not decrypted)'}  signature ${message.signature_status}  message ${message.uuid}`,
  );
}

async function inboxToWatch(client: ServiceClient, organizationUuid: string, given: unknown): Promise<string> {
  if (typeof given === 'string') return given;
  const inbox = await findListenInbox(client, organizationUuid);
  if (!inbox) {
    throw new StartupError(`No inbox "${LISTEN_INBOX_NAME}" to wait on: start qr-sandbox listen first, or pass --inbox UUID.`);
  }
  return inbox.uuid;
}

export const waitCommand: Command = {
  name: 'wait',
  summary:
    'Wait until matching deliveries have arrived in the inbox; exit 0 when they have, 1 on timeout (saying what did arrive), 2 on a mistake.',
  usage: 'wait [--event TYPE] [--qr-code UUID] [--count N] [--signature valid] [--timeout S] [--since ID] [--inbox UUID] [--json]',
  options: {
    event: { type: 'string' },
    'qr-code': { type: 'string' },
    count: { type: 'string' },
    signature: { type: 'string' },
    timeout: { type: 'string' },
    since: { type: 'string' },
    inbox: { type: 'string' },
    ...clientOptions,
  },
  help: {
    event: 'Event to wait for: check_in, check_out or delivery. Default any',
    'qr-code': 'Only deliveries of confirmations at this QR code',
    count: 'How many matching deliveries (1 to 1000). Default 1',
    signature: 'Only deliveries whose signature verdict is this: valid, invalid or unknown. Default any',
    timeout: `Seconds to wait in all. Default ${DEFAULT_WAIT_TIMEOUT_S}`,
    since: 'Count only deliveries that arrived after this message uuid, or this event id (waiting for it first). Default: all in the inbox',
    inbox: `Inbox to watch. Default the one qr-sandbox listen made ("${LISTEN_INBOX_NAME}")`,
    ...clientHelp,
  },
  examples: [
    'qr-sandbox wait --event check_out --timeout 20',
    'qr-sandbox wait --event delivery --count 6 --signature valid',
    'ID=$(qr-sandbox trigger check_in --json | jq -r .event_id); qr-sandbox wait --event check_out --since "$ID"',
  ],
  async run(values) {
    const wanted: Wanted = {
      eventType: typeof values.event === 'string' ? toEventType(values.event) : undefined,
      qrCodeUuid: typeof values['qr-code'] === 'string' ? values['qr-code'] : undefined,
      signature: typeof values.signature === 'string' ? values.signature : undefined,
    };
    if (wanted.signature !== undefined && !(SIGNATURES as readonly string[]).includes(wanted.signature)) {
      throw new StartupError(`--signature must be one of ${SIGNATURES.join(', ')}.`);
    }
    const count = countOption(values, 'count', 1);
    const timeoutS = countOption(values, 'timeout', DEFAULT_WAIT_TIMEOUT_S, 24 * 3600);
    const target = await resolveTarget(values);
    const organization = await organizationOf(target);
    const inbox = await inboxToWatch(target.client, organization, values.inbox);
    const deadline = Date.now() + timeoutS * 1000;
    const since = typeof values.since === 'string' ? values.since : undefined;
    const from = { client: target.client, organizationUuid: organization, inboxUuid: inbox, after: since, deadline };
    if (since?.startsWith('evt_')) {
      // An event triggered just now may not have arrived yet: wait for it first, then count after it.
      const first = await followInbox({ ...from, after: undefined }, (message) => message.event_id === since);
      if (!first) {
        process.stderr.write(`Timed out after ${timeoutS} s: event ${since} (--since) has not arrived in the inbox.\n`);
        return EXIT.notMet;
      }
      from.after = first.uuid;
    }
    const arrived: MessageListItem[] = [];
    const matched: MessageListItem[] = [];
    const done = await followInbox(from, (message) => {
      arrived.push(message);
      if (!matches(message, wanted)) return false;
      matched.push(message);
      printMatch(values, message);
      return matched.length >= count;
    });
    if (done) {
      process.stderr.write(`Arrived: ${describeWanted(wanted, count)}.\n`);
      return EXIT.ok;
    }
    const summary = `Timed out after ${timeoutS} s waiting for ${describeWanted(wanted, count)}: ${matched.length} matched; ${describeArrived(arrived)}.`;
    if (values.json) emit(values, { type: 'timeout', matched: matched.length, wanted: count, arrived: arrived.length }, summary);
    process.stderr.write(`${summary}\n`);
    return EXIT.notMet;
  },
};
