/**
 * The long-poll of an inbox's messages: answers at once when messages after the cursor are there,
 * else holds the request until the receiver announces a new message of this inbox (the live bus's
 * inbox.message, sent once the message is stored and judged), the timeout passes, the client
 * hangs up or the server stops. Nothing polls the database in between.
 */
import type { Response } from 'express';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { requireInbox } from './inboxes.ts';
import { toMessageListItem } from './messages.ts';
import { receiverRuntime } from './runtime.ts';
import { BODY_EXCERPT_BYTES, LIST_ENVELOPE_BYTES, type MessageWait, type MessageWaitQuery } from './schemas.ts';
import { findMessage, firstSeqOfEvent, messageItemRowsAfter, relaysOf } from './store.ts';

/** The seq the wait starts after: that of a message uuid, else of the first message with that event id. */
async function cursorSeq(ctx: AppContext, inboxUuid: string, after: string | undefined): Promise<number> {
  if (after === undefined) return 0;
  const message = await findMessage(ctx.db.kysely, inboxUuid, after);
  if (message) return message.seq;
  const seq = await firstSeqOfEvent(ctx.db.kysely, inboxUuid, after);
  if (seq !== undefined) return seq;
  throw notFound(
    `Message or event ${after} in inbox ${inboxUuid} (an event counts once a delivery of it has arrived; the oldest messages are dropped past max_messages)`,
  );
}

async function matching(ctx: AppContext, inboxUuid: string, query: MessageWaitQuery, seq: number): Promise<MessageWait | null> {
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

/** Resolves when a message of the inbox is announced, the time is up, the client goes or the server stops. */
function nextMessageOrEnd(ctx: AppContext, inboxUuid: string, ms: number, res: Response): { arrived: Promise<boolean>; cancel(): void } {
  const stop = receiverRuntime(ctx).signal;
  let cancel = () => {};
  const arrived = new Promise<boolean>((resolve) => {
    const done = (value: boolean) => {
      cancel();
      resolve(value);
    };
    const unsubscribe = ctx.live.subscribe((event) => {
      const data = event.data as { inbox_uuid?: unknown } | null;
      if (event.type === 'inbox.message' && data?.inbox_uuid === inboxUuid) done(true);
    });
    const timer = setTimeout(() => done(false), ms);
    const onGone = () => done(false);
    res.on('close', onGone);
    stop.addEventListener('abort', onGone);
    cancel = () => {
      unsubscribe();
      clearTimeout(timer);
      res.off('close', onGone);
      stop.removeEventListener('abort', onGone);
    };
  });
  return { arrived, cancel: () => cancel() };
}

export async function waitForMessages(
  ctx: AppContext,
  organizationUuid: string,
  inboxUuid: string,
  query: MessageWaitQuery,
  res: Response,
): Promise<MessageWait> {
  await requireInbox(ctx, organizationUuid, inboxUuid);
  const seq = await cursorSeq(ctx, inboxUuid, query.after);
  const deadline = Date.now() + query.timeout_s * 1000;
  const timedOut: MessageWait = { messages: [], timed_out: true, next_after: null };
  for (;;) {
    // Listening before looking: a message stored between the look and the wait still wakes it.
    const next = nextMessageOrEnd(ctx, inboxUuid, Math.max(0, deadline - Date.now()), res);
    try {
      const found = await matching(ctx, inboxUuid, query, seq);
      if (found) return found;
      // A server that is stopping (its abort already fired) or a client already gone would not wake the wait.
      if (deadline <= Date.now() || res.destroyed || receiverRuntime(ctx).stopped) return timedOut;
      if (!(await next.arrived)) return timedOut;
    } finally {
      next.cancel();
    }
  }
}
