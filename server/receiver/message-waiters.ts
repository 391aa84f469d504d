/**
 * The open waits for inbox messages of a server, together. One live-bus listener serves them all:
 * an announced message (inbox.message) is checked in memory against each waiter's filters, and
 * only waiters it matches are woken. The woken waiters of an inbox are answered together, once
 * per batch of announcements: one query for the messages since the oldest point any of them has
 * looked at (and one for announced messages older than that, when there are any), then each
 * waiter takes its own from those rows in memory. Waits are capped per API key and per
 * organization (limits.ts).
 */
import type { ReceiverWorkers } from './deps.ts';
import { ApiError } from '../http/errors.ts';
import type { LiveEvent } from '../live/bus.ts';
import { inboxLimits } from './limits.ts';
import { toMessageListItem } from './messages.ts';
import { perServer } from './per-server.ts';
import { BODY_EXCERPT_BYTES, LIST_ENVELOPE_BYTES, type MessageWait, type MessageWaitQuery } from './schemas.ts';
import { type FilteredFields, type MessageItemRow, messageItemRowsOf, passesFilter, relaysOf } from './store.ts';

/** Rows one wake-up reads at most; woken waiters that found nothing in a full page look at the next. */
const ROWS_PER_WAKE = 200;
const ITEM_LIMITS = { headBytes: BODY_EXCERPT_BYTES, maxPlaintextBytes: LIST_ENVELOPE_BYTES };

export interface Waiter {
  readonly inboxUuid: string;
  readonly organizationUuid: string;
  readonly keyUuid: string;
  readonly query: MessageWaitQuery;
  /** Only messages after this seq count (the wait's `after`). */
  readonly cursor: number;
  /** Messages up to this seq were looked at (none matched then); later ones are read when woken. */
  checked: number;
  /** Still making its first look: woken waiters are answered once it is done. */
  looking: boolean;
  readonly deadline: number;
  readonly answer: (found: MessageWait) => void;
}

type Announced = FilteredFields & { uuid: string; inbox_uuid: string };

function announcedMessage(event: LiveEvent): Announced | null {
  if (event.type !== 'inbox.message') return null;
  const data = event.data as Partial<Announced> | null;
  return typeof data?.inbox_uuid === 'string' && typeof data.uuid === 'string' ? (data as Announced) : null;
}

const count = (counts: Map<string, number>, key: string, by: number) => {
  const next = (counts.get(key) ?? 0) + by;
  if (next === 0) counts.delete(key);
  else counts.set(key, next);
};

export class MessageWaiters {
  private readonly byInbox = new Map<string, Set<Waiter>>();
  private readonly perKey = new Map<string, number>();
  private readonly perOrganization = new Map<string, number>();
  private readonly woken = new Map<string, { waiters: Set<Waiter>; announced: Set<string> }>();
  private readonly waking = new Set<string>();
  private unsubscribe: (() => void) | undefined;

  private readonly ctx: ReceiverWorkers;

  constructor(ctx: ReceiverWorkers) {
    this.ctx = ctx;
  }

  /** Waits held now, of one inbox or of all (for tests and the bench). */
  held(inboxUuid?: string): number {
    if (inboxUuid !== undefined) return this.byInbox.get(inboxUuid)?.size ?? 0;
    let total = 0;
    for (const waiters of this.byInbox.values()) total += waiters.size;
    return total;
  }

  /** 429 with Retry-After (when the soonest of them ends) when the key or the organization holds as many waits as it may. Before any query. */
  admit(waiter: Pick<Waiter, 'keyUuid' | 'organizationUuid'>): void {
    const limits = inboxLimits(this.ctx.config);
    const refuse = (held: number, cap: number, whose: string, flag: string, same: (w: Waiter) => boolean) => {
      if (held < cap) return;
      const soonest = Math.min(...[...this.all()].filter(same).map((w) => w.deadline));
      const seconds = Math.max(1, Math.ceil((soonest - Date.now()) / 1000));
      throw new ApiError(
        'TOO_MANY_REQUESTS',
        `${whose} already holds ${held} waits for inbox messages, the limit (serve ${flag}). ` +
          `Wait for one of them to answer (in ${seconds} s at most), or follow the inbox with fewer waits at once.`,
        undefined,
        { 'Retry-After': String(seconds) },
      );
    };
    refuse(
      this.perKey.get(waiter.keyUuid) ?? 0,
      limits.waitsPerKey,
      'This API key',
      '--inbox-waits-per-key',
      (w) => w.keyUuid === waiter.keyUuid,
    );
    refuse(
      this.perOrganization.get(waiter.organizationUuid) ?? 0,
      limits.waitsPerOrganization,
      'This organization',
      '--inbox-waits-per-organization',
      (w) => w.organizationUuid === waiter.organizationUuid,
    );
  }

  /** Adds the waiter, or refuses it with 429 past the caps of its key or organization (admit). Call `remove` when it ends. */
  add(waiter: Waiter): void {
    this.admit(waiter);
    const waiters = this.byInbox.get(waiter.inboxUuid) ?? new Set<Waiter>();
    this.byInbox.set(waiter.inboxUuid, waiters);
    waiters.add(waiter);
    count(this.perKey, waiter.keyUuid, 1);
    count(this.perOrganization, waiter.organizationUuid, 1);
    this.unsubscribe ??= this.ctx.live.subscribe((event) => this.announce(event));
  }

  remove(waiter: Waiter): void {
    const waiters = this.byInbox.get(waiter.inboxUuid);
    if (!waiters?.delete(waiter)) return;
    if (waiters.size === 0) this.byInbox.delete(waiter.inboxUuid);
    this.woken.get(waiter.inboxUuid)?.waiters.delete(waiter);
    count(this.perKey, waiter.keyUuid, -1);
    count(this.perOrganization, waiter.organizationUuid, -1);
    if (this.byInbox.size === 0) {
      this.unsubscribe?.();
      this.unsubscribe = undefined;
    }
  }

  /** The waiter's first look is done: answers it now if a message woke it meanwhile. */
  looked(waiter: Waiter): void {
    waiter.looking = false;
    if (this.woken.get(waiter.inboxUuid)?.waiters.has(waiter)) this.scheduleWake(waiter.inboxUuid);
  }

  private *all(): Generator<Waiter> {
    for (const waiters of this.byInbox.values()) yield* waiters;
  }

  private announce(event: LiveEvent): void {
    const message = announcedMessage(event);
    const waiters = message ? this.byInbox.get(message.inbox_uuid) : undefined;
    if (!message || !waiters) return;
    const matched = [...waiters].filter((w) => passesFilter(message, w.query));
    if (matched.length === 0) return;
    const batch = this.woken.get(message.inbox_uuid) ?? { waiters: new Set<Waiter>(), announced: new Set<string>() };
    this.woken.set(message.inbox_uuid, batch);
    for (const w of matched) batch.waiters.add(w);
    batch.announced.add(message.uuid);
    this.scheduleWake(message.inbox_uuid);
  }

  /** One wake per inbox at a time; announcements meanwhile join the next batch. */
  private scheduleWake(inboxUuid: string): void {
    if (this.waking.has(inboxUuid)) return;
    this.waking.add(inboxUuid);
    setImmediate(() => {
      this.wake(inboxUuid)
        .catch((error: unknown) => this.ctx.logger.error({ err: error, inbox_uuid: inboxUuid }, 'inbox: could not answer waits'))
        .finally(() => {
          this.waking.delete(inboxUuid);
          const batch = this.woken.get(inboxUuid);
          if (batch && [...batch.waiters].some((w) => !w.looking)) this.scheduleWake(inboxUuid);
        });
    });
  }

  private async wake(inboxUuid: string): Promise<void> {
    const batch = this.woken.get(inboxUuid);
    if (!batch) return;
    const waiters = [...batch.waiters].filter((w) => !w.looking);
    if (waiters.length === 0) return;
    for (const w of waiters) batch.waiters.delete(w);
    const announced = batch.announced;
    if (batch.waiters.size === 0) this.woken.delete(inboxUuid);
    else batch.announced = new Set(announced);

    const db = this.ctx.db.kysely;
    const from = Math.min(...waiters.map((w) => w.checked));
    const page = await messageItemRowsOf(db, inboxUuid, { afterSeq: from, limit: ROWS_PER_WAKE }, ITEM_LIMITS);
    const full = page.length === ROWS_PER_WAKE;
    const inPage = new Set(page.map((row) => row.uuid));
    // Announced messages stored before `from` whose verdicts were written after a waiter looked.
    const older = await messageItemRowsOf(db, inboxUuid, { uuids: [...announced].filter((u) => !inPage.has(u)) }, ITEM_LIMITS);
    const rows = [...older, ...page].sort((a, b) => a.seq - b.seq);
    const lastSeq = page.at(-1)?.seq ?? from;

    const picks = new Map<Waiter, MessageItemRow[]>();
    for (const w of waiters) {
      const mine = rows
        .filter((r) => r.seq > w.cursor && (r.seq > w.checked || announced.has(r.uuid)) && passesFilter(r, w.query))
        .slice(0, w.query.limit);
      if (mine.length > 0) picks.set(w, mine);
      else {
        w.checked = Math.max(w.checked, lastSeq);
        // A full page may have left this waiter's messages for the next one.
        if (full) this.requeue(w);
      }
    }
    if (picks.size === 0) return;
    const relays = await relaysOf(db, [...new Set([...picks.values()].flat().map((r) => r.uuid))]);
    for (const [w, mine] of picks) {
      if (!this.byInbox.get(inboxUuid)?.has(w)) continue;
      w.answer({
        messages: mine.map((row) => toMessageListItem(row, relays.get(row.uuid) ?? [])),
        timed_out: false,
        next_after: mine.at(-1)?.uuid ?? null,
      });
    }
  }

  private requeue(waiter: Waiter): void {
    const batch = this.woken.get(waiter.inboxUuid) ?? { waiters: new Set<Waiter>(), announced: new Set<string>() };
    this.woken.set(waiter.inboxUuid, batch);
    batch.waiters.add(waiter);
  }
}

export const messageWaiters = perServer((ctx: ReceiverWorkers) => new MessageWaiters(ctx));
