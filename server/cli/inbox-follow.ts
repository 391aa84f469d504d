/** Follows an inbox's messages through the server's long-poll (GET /api/inboxes/uuid/{uuid}/messages/wait), oldest first. */
import type { MessageListItem, MessageWait } from '../receiver/schemas.ts';
import { MAX_WAIT_SECONDS } from '../receiver/schemas.ts';
import type { ServiceClient } from '../remote/service-client.ts';
import { call } from './client-command.ts';

export interface FollowFrom {
  client: ServiceClient;
  organizationUuid: string;
  inboxUuid: string;
  /** Start after this message uuid (or event id); undefined: from the inbox's first message. */
  after: string | undefined;
  /** Epoch ms to give up at. */
  deadline: number;
}

/**
 * Hands each message to `onMessage` until it returns true (then resolves with that message), or
 * the deadline passes (then null). Each request waits on the server, at most 60 s.
 */
export async function followInbox(from: FollowFrom, onMessage: (message: MessageListItem) => boolean): Promise<MessageListItem | null> {
  let after = from.after;
  for (;;) {
    const remaining = Math.max(0, Math.ceil((from.deadline - Date.now()) / 1000));
    const query = new URLSearchParams({
      organization_uuid: from.organizationUuid,
      timeout_s: String(Math.min(remaining, MAX_WAIT_SECONDS)),
    });
    if (after !== undefined) query.set('after', after);
    const answer = await call<MessageWait>(
      from.client,
      `/api/inboxes/uuid/${encodeURIComponent(from.inboxUuid)}/messages/wait?${query}`,
      {},
      (MAX_WAIT_SECONDS + 15) * 1000,
    );
    for (const message of answer.messages) if (onMessage(message)) return message;
    if (answer.next_after) after = answer.next_after;
    if (answer.messages.length === 0 && Date.now() >= from.deadline) return null;
  }
}
