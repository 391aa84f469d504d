/** Shapes of the inspector's API, from the generated API types. */
import type { MessageSummaryField } from '../../../common/message-summary.ts';
import { allOf, type Schemas } from './types.ts';

export type Hint = Schemas['DoctorHint'];
export type Inbox = Schemas['Inbox'];
export type InboxResponse = Schemas['InboxResponse'];
export type Message = Schemas['InboxMessage'];
export type MessageListItem = Schemas['InboxMessageListItem'];
export type Relay = Schemas['InboxRelay'];
export type SignatureStatus = Message['signature_status'];
/** The data of the inbox.message live event: a message's list fields without its body. */
export type MessageSummary = Pick<Message, MessageSummaryField>;
export type RelayEvent = Relay & { inbox_uuid: string; message_uuid: string };
export type RegisteredWebhook = Schemas['WebhookWithSecret'];

export const SIGNATURE_STATUSES = allOf<SignatureStatus>()('valid', 'invalid', 'unknown');

const receivedFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

/** "Nov 21, 8:51:14 PM": messages often arrive within the same minute, so with seconds. */
export function formatReceived(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : receivedFormat.format(date);
}

export const inboxPath = (uuid: string) => `/api/inboxes/uuid/${encodeURIComponent(uuid)}`;
export const messagePath = (inboxUuid: string, messageUuid: string) =>
  `${inboxPath(inboxUuid)}/messages/${encodeURIComponent(messageUuid)}`;

/** The inbox after one more message arrived: at its cap the oldest one is dropped instead. */
export function withArrival(inbox: Inbox): Inbox {
  return inbox.message_count >= inbox.max_messages
    ? { ...inbox, dropped_messages: inbox.dropped_messages + 1 }
    : { ...inbox, message_count: inbox.message_count + 1 };
}

/** "12 oldest dropped (keeps 1,000)", or null while nothing was dropped. */
export function droppedSummary(inbox: Inbox): string | null {
  if (inbox.dropped_messages === 0) return null;
  return `${inbox.dropped_messages.toLocaleString()} oldest dropped (keeps ${inbox.max_messages.toLocaleString()})`;
}
