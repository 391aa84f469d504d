import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** One claimed attempt: everything the sender needs, read in the claiming transaction. */
export interface ClaimedAttempt {
  delivery_id: string;
  attempt: number;
  schedule_base: number;
  event_id: string;
  event_type: string;
  envelope: string;
  organization_uuid: string;
  webhook_uuid: string;
  url: string;
  secret: string;
}

export interface AttemptOutcome {
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export interface DeliveryAfterAttempt {
  status: 'pending' | 'delivered' | 'failed';
  next_attempt_at: number | null;
  status_reason: string | null;
}

/**
 * Claims up to `limit` due deliveries in one transaction: each gets its attempt number and an
 * unfinished attempt row, so a crash during the send leaves a trace that recovery finishes.
 * Deliveries whose webhook was deactivated or deleted meanwhile fail instead.
 */
export async function claimDueDeliveries(db: Kysely<Database>, limit: number, nowMs: number, now: string): Promise<ClaimedAttempt[]> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.uuid', 'd.webhook_uuid')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
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
      ])
      .where('d.status', '=', 'pending')
      .where('d.in_flight', '=', 0)
      .where('d.next_attempt_at', '<=', nowMs)
      .orderBy('d.next_attempt_at')
      .orderBy('d.seq')
      .limit(limit)
      .execute();
    const claimed: ClaimedAttempt[] = [];
    for (const row of due) {
      if (row.is_active !== 1 || row.deleted_on !== null) {
        const reason = row.deleted_on !== null ? 'The webhook was deleted.' : 'The webhook is inactive.';
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', status_reason: reason, next_attempt_at: null, updated_on: now })
          .where('delivery_id', '=', row.delivery_id)
          .execute();
        continue;
      }
      const attempt = row.attempt_count + 1;
      await trx.updateTable('webhook_deliveries').set({ in_flight: 1, attempt_count: attempt, updated_on: now }).where('delivery_id', '=', row.delivery_id).execute();
      await trx.insertInto('webhook_delivery_attempts').values({ delivery_id: row.delivery_id, attempt, attempted_on: now, finished: 0 }).execute();
      claimed.push({
        delivery_id: row.delivery_id,
        attempt,
        schedule_base: row.schedule_base,
        event_id: row.event_id,
        event_type: row.event_type,
        envelope: row.envelope,
        organization_uuid: row.organization_uuid,
        webhook_uuid: row.webhook_uuid,
        url: row.url,
        secret: row.secret,
      });
    }
    return claimed;
  });
}

/** Records the attempt's outcome and the delivery's next state together. */
export async function finishAttempt(
  db: Kysely<Database>,
  claim: Pick<ClaimedAttempt, 'delivery_id' | 'attempt'>,
  outcome: AttemptOutcome,
  next: DeliveryAfterAttempt,
  now: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_delivery_attempts')
      .set({ finished: 1, ...outcome })
      .where('delivery_id', '=', claim.delivery_id)
      .where('attempt', '=', claim.attempt)
      .execute();
    await trx
      .updateTable('webhook_deliveries')
      .set({ in_flight: 0, ...next, updated_on: now })
      .where('delivery_id', '=', claim.delivery_id)
      .execute();
  });
}

export const INTERRUPTED_ERROR = 'Interrupted: the app stopped during this attempt; the delivery is sent again with the same delivery id.';

/**
 * After a crash: attempts that never finished are closed as interrupted and their deliveries
 * are due at once. Their receivers may have got them; the stable delivery id lets them de-duplicate.
 */
export async function recoverInterruptedDeliveries(db: Kysely<Database>, nowMs: number, now: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('webhook_delivery_attempts').set({ finished: 1, error: INTERRUPTED_ERROR }).where('finished', '=', 0).execute();
    const result = await trx
      .updateTable('webhook_deliveries')
      .set({ in_flight: 0, next_attempt_at: nowMs, updated_on: now })
      .where('in_flight', '=', 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}

/** Epoch ms of the earliest pending delivery that is not in flight, or null. */
export async function nextDueAt(db: Kysely<Database>): Promise<number | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min('next_attempt_at').as('next'))
    .where('status', '=', 'pending')
    .where('in_flight', '=', 0)
    .executeTakeFirst();
  return row?.next ?? null;
}
