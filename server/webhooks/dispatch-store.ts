import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { RetryScheduleName } from './retry-schedule.ts';

/** One claimed attempt: everything the sender needs, read in the claiming transaction. */
export interface ClaimedAttempt {
  delivery_id: string;
  attempt: number;
  attempted_on: string;
  schedule_base: number;
  event_id: string;
  event_type: string;
  envelope: string;
  organization_uuid: string;
  webhook_uuid: string;
  url: string;
  secret: string;
  allow_http: boolean;
  /** The organization's chosen schedule; null: the server's default. */
  retry_schedule: RetryScheduleName | null;
}

export interface AttemptOutcome {
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
  /** What was sent: the headers as a JSON object, and the encrypted body; null when nothing was sent. */
  request_headers: string | null;
  request_body: string | null;
}

export interface DeliveryAfterAttempt {
  status: 'pending' | 'delivered' | 'failed';
  next_attempt_at: number | null;
  status_reason: string | null;
}

export interface FinishedAttempt {
  claim: Pick<ClaimedAttempt, 'delivery_id' | 'attempt' | 'attempted_on'>;
  outcome: AttemptOutcome;
  next: DeliveryAfterAttempt;
}

export interface ClaimLimits {
  /** Attempts to start now. */
  limit: number;
  /** Attempts in flight to one webhook at most, so one slow receiver cannot hold every slot. */
  perWebhook: number;
  /** Attempts in flight now, by webhook uuid. */
  inFlightByWebhook: ReadonlyMap<string, number>;
}

/**
 * Claims due deliveries in one transaction: each is marked in flight with its new attempt number
 * and start time, so a crash during the send is found and logged by recovery. Deliveries whose
 * webhook was deactivated or deleted meanwhile fail instead.
 */
export async function claimDueDeliveries(db: Kysely<Database>, limits: ClaimLimits, nowMs: number, now: string): Promise<ClaimedAttempt[]> {
  const busy = new Map(limits.inFlightByWebhook);
  const saturated = [...busy].filter(([, n]) => n >= limits.perWebhook).map(([uuid]) => uuid);
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.uuid', 'd.webhook_uuid')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .leftJoin('organization_settings as s', 's.organization_uuid', 'd.organization_uuid')
      .select([
        'd.delivery_id',
        'd.attempt_count',
        'd.schedule_base',
        'd.organization_uuid',
        'd.webhook_uuid',
        'e.id as event_id',
        'e.type as event_type',
        'e.envelope',
        'w.url',
        'w.secret',
        'w.is_active',
        'w.deleted_on',
        's.allow_http_webhooks',
        's.webhook_retry_schedule',
      ])
      // Literals, not parameters: only then can SQLite use the partial index webhook_deliveries_due.
      .where('d.status', '=', sql.lit('pending'))
      .where('d.in_flight', '=', sql.lit(0))
      .where('d.next_attempt_at', '<=', nowMs)
      .$if(saturated.length > 0, (qb) => qb.where('d.webhook_uuid', 'not in', saturated))
      .orderBy('d.next_attempt_at')
      .orderBy('d.seq')
      .limit(limits.limit * 2)
      .execute();
    const stopped = due.filter((row) => row.is_active !== 1 || row.deleted_on !== null);
    const live: typeof due = [];
    for (const row of due) {
      if (live.length >= limits.limit || stopped.includes(row)) continue;
      const inFlight = busy.get(row.webhook_uuid) ?? 0;
      if (inFlight >= limits.perWebhook) continue;
      busy.set(row.webhook_uuid, inFlight + 1);
      live.push(row);
    }
    for (const row of stopped) {
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status: 'failed',
          status_reason: row.deleted_on !== null ? 'The webhook was deleted.' : 'The webhook is inactive.',
          next_attempt_at: null,
          updated_on: now,
        })
        .where('delivery_id', '=', row.delivery_id)
        .execute();
    }
    if (live.length > 0) {
      await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({ in_flight: 1, attempt_count: eb('attempt_count', '+', 1), claimed_on: now, updated_on: now }))
        .where(
          'delivery_id',
          'in',
          live.map((row) => row.delivery_id),
        )
        .execute();
    }
    return live.map((row) => ({
      delivery_id: row.delivery_id,
      attempt: row.attempt_count + 1,
      attempted_on: now,
      schedule_base: row.schedule_base,
      event_id: row.event_id,
      event_type: row.event_type,
      envelope: row.envelope,
      organization_uuid: row.organization_uuid,
      webhook_uuid: row.webhook_uuid,
      url: row.url,
      secret: row.secret,
      allow_http: row.allow_http_webhooks === 1,
      retry_schedule: row.webhook_retry_schedule ?? null,
    }));
  });
}

/** Records finished attempts and their deliveries' next states in one transaction (group commit). */
export async function finishAttempts(db: Kysely<Database>, finished: FinishedAttempt[], now: string): Promise<void> {
  if (finished.length === 0) return;
  await db.transaction().execute(async (trx) => {
    // A reset of the demo data may have deleted a delivery while its attempt was in flight: nothing to record for it.
    const ids = finished.map((f) => f.claim.delivery_id);
    const present = new Set(
      (await trx.selectFrom('webhook_deliveries').select('delivery_id').where('delivery_id', 'in', ids).execute()).map(
        (r) => r.delivery_id,
      ),
    );
    const kept = finished.filter((f) => present.has(f.claim.delivery_id));
    if (kept.length === 0) return;
    await trx
      .insertInto('webhook_delivery_attempts')
      .values(
        kept.map(({ claim, outcome }) => ({
          delivery_id: claim.delivery_id,
          attempt: claim.attempt,
          attempted_on: claim.attempted_on,
          ...outcome,
        })),
      )
      .execute();
    const delivered = kept.filter((f) => f.next.status === 'delivered').map((f) => f.claim.delivery_id);
    if (delivered.length > 0) {
      await trx
        .updateTable('webhook_deliveries')
        .set({ in_flight: 0, claimed_on: null, status: 'delivered', next_attempt_at: null, status_reason: null, updated_on: now })
        .where('delivery_id', 'in', delivered)
        .execute();
    }
    for (const { claim, next } of kept.filter((f) => f.next.status !== 'delivered')) {
      await trx
        .updateTable('webhook_deliveries')
        .set({ in_flight: 0, claimed_on: null, ...next, updated_on: now })
        .where('delivery_id', '=', claim.delivery_id)
        .execute();
    }
  });
}

export const INTERRUPTED_ERROR = 'Interrupted: the app stopped during this attempt; the delivery is sent again with the same delivery id.';

/**
 * After a crash: attempts that were in flight are logged as interrupted and their deliveries are
 * due at once. Their receivers may have got them; the stable delivery id lets them de-duplicate.
 */
export async function recoverInterruptedDeliveries(db: Kysely<Database>, nowMs: number, now: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // A literal 1: the partial index webhook_deliveries_in_flight serves only that.
    const interrupted = await trx
      .selectFrom('webhook_deliveries')
      .select(['delivery_id', 'attempt_count', 'claimed_on'])
      .where('in_flight', '=', sql.lit(1))
      .execute();
    if (interrupted.length === 0) return 0;
    for (const row of interrupted) {
      await trx
        .insertInto('webhook_delivery_attempts')
        .values({
          delivery_id: row.delivery_id,
          attempt: row.attempt_count,
          attempted_on: row.claimed_on ?? now,
          status_code: null,
          duration_ms: null,
          error: INTERRUPTED_ERROR,
          response_excerpt: null,
        })
        .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
        .execute();
    }
    await trx
      .updateTable('webhook_deliveries')
      .set({ in_flight: 0, claimed_on: null, next_attempt_at: nowMs, updated_on: now })
      .where('in_flight', '=', sql.lit(1))
      .execute();
    return interrupted.length;
  });
}

/** Epoch ms of the earliest pending delivery that is not in flight, or null. */
export async function nextDueAt(db: Kysely<Database>): Promise<number | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min('next_attempt_at').as('next'))
    .where('status', '=', sql.lit('pending'))
    .where('in_flight', '=', sql.lit(0))
    .executeTakeFirst();
  return row?.next ?? null;
}
