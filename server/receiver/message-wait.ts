/**
 * The long-poll of an inbox's messages: answers at once when messages after the cursor are there,
 * else holds the request until a new message of this inbox that passes its filters is announced
 * (MessageWaiters, message-waiters.ts), the timeout passes, the client hangs up or the server
 * stops. Nothing polls the database in between.
 */
import type { Response } from 'express';
import type { ReceiverWorkers } from './deps.ts';
import { notFound } from '../http/errors.ts';
import { requireInbox } from './inboxes.ts';
import { toMessageListItem } from './messages.ts';
import { receiverRuntime } from './runtime.ts';
import { BODY_EXCERPT_BYTES, LIST_ENVELOPE_BYTES, type MessageWait, type MessageWaitQuery } from './schemas.ts';
import { findMessage, firstSeqOfEvent, lastSeqOf, messageItemRowsAfter, relaysOf } from './store.ts';
import { messageWaiters, type Waiter } from './message-waiters.ts';
import { holdIdle } from '../http/idle-holds.ts';
import type { Principal } from '../auth/principal.ts';

/** The seq the wait starts after: that of a message uuid, else of the first message with that event id. */
async function cursorSeq(ctx: ReceiverWorkers, inboxUuid: string, after: string | undefined): Promise<number> {
  if (after === undefined) return 0;
  const message = await findMessage(ctx.db.kysely, inboxUuid, after);
  if (message) return message.seq;
  const seq = await firstSeqOfEvent(ctx.db.kysely, inboxUuid, after);
  if (seq !== undefined) return seq;
  throw notFound(
    `Message or event ${after} in inbox ${inboxUuid} (an event counts once a delivery of it has arrived; the oldest messages are dropped past max_messages)`,
  );
}

async function matching(ctx: ReceiverWorkers, inboxUuid: string, query: MessageWaitQuery, seq: number): Promise<MessageWait | null> {
  const rows = await messageItemRowsAfter(ctx.db.kysely, inboxUuid, query, seq, query.limit, {
    headBytes: BODY_EXCERPT_BYTES,
    maxPlaintextBytes: LIST_ENVELOPE_BYTES,
  });
  const last = rows.at(-1);
  if (!last) return null;
  const relays = await relaysOf(
    ctx.db.kysely,
    rows.map((r) => r.uuid),
  );
  return { messages: rows.map((row) => toMessageListItem(row, relays.get(row.uuid) ?? [])), timed_out: false, next_after: last.uuid };
}

/**
 * Holds the wait until MessageWaiters answers it, the time is up, the client goes, the server
 * stops, or the connection limiter needs its connection (then it answers timed out and closes).
 */
function held(
  ctx: ReceiverWorkers,
  waiter: Omit<Waiter, 'answer' | 'looking' | 'checked'>,
  res: Response,
  look: (w: Waiter) => Promise<MessageWait | null>,
) {
  const waiters = messageWaiters(ctx);
  const stop = receiverRuntime(ctx).signal;
  const timedOut: MessageWait = { messages: [], timed_out: true, next_after: null };
  let settle: (answer: MessageWait) => void = () => {};
  const settled = new Promise<MessageWait>((resolve) => {
    settle = resolve;
  });
  const entry: Waiter = { ...waiter, checked: waiter.cursor, looking: true, answer: (found) => settle(found) };
  waiters.add(entry);
  const onGone = () => settle(timedOut);
  const timer = setTimeout(onGone, Math.max(0, waiter.deadline - Date.now()));
  res.on('close', onGone);
  stop.addEventListener('abort', onGone);
  const unhold = res.socket
    ? holdIdle(res.socket, () => {
        res.setHeader('Connection', 'close');
        settle(timedOut);
      })
    : () => {};
  const done = () => {
    waiters.remove(entry);
    clearTimeout(timer);
    res.off('close', onGone);
    stop.removeEventListener('abort', onGone);
    unhold();
  };
  return (async () => {
    try {
      const found = await look(entry);
      if (found) return found;
      // A server that is stopping (its abort already fired) or a client already gone would not end the wait.
      if (waiter.deadline <= Date.now() || res.destroyed || receiverRuntime(ctx).stopped) return timedOut;
      waiters.looked(entry);
      return await settled;
    } finally {
      done();
    }
  })();
}

export async function waitForMessages(
  ctx: ReceiverWorkers,
  principal: Principal,
  inboxUuid: string,
  query: MessageWaitQuery,
  res: Response,
): Promise<MessageWait> {
  const organizationUuid = principal.organizationUuid;
  messageWaiters(ctx).admit({ keyUuid: principal.keyUuid, organizationUuid });
  await requireInbox(ctx, organizationUuid, inboxUuid);
  const cursor = await cursorSeq(ctx, inboxUuid, query.after);
  const deadline = Date.now() + query.timeout_s * 1000;
  // Added before the look: a message announced during it still wakes the wait.
  return held(ctx, { inboxUuid, organizationUuid, keyUuid: principal.keyUuid, query, cursor, deadline }, res, async (waiter) => {
    const last = await lastSeqOf(ctx.db.kysely, inboxUuid);
    const found = await matching(ctx, inboxUuid, query, cursor);
    waiter.checked = Math.max(cursor, last);
    return found;
  });
}
