import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { requireWebhook } from '../webhooks/webhooks.ts';
import { fillMinutes, lastMinutes } from './minutes.ts';
import type { DeliveryStats, PerMinuteQuery } from './schemas.ts';

interface Counts {
  delivered: number;
  failed: number;
  attempts: number;
  answer_ms_sum: number | null;
  answered: number;
}

const NONE: Counts = { delivered: 0, failed: 0, attempts: 0, answer_ms_sum: null, answered: 0 };

function bucketOf(counts: Counts): DeliveryStats['totals'] {
  const { delivered, failed, attempts, answer_ms_sum, answered } = counts;
  return {
    delivered,
    retried: attempts - delivered - failed,
    failed,
    answer_ms: answered > 0 && answer_ms_sum !== null ? Math.round(answer_ms_sum / answered) : null,
  };
}

function sum(rows: Counts[]): Counts {
  return rows.reduce(
    (total, row) => ({
      delivered: total.delivered + row.delivered,
      failed: total.failed + row.failed,
      attempts: total.attempts + row.attempts,
      answer_ms_sum: row.answer_ms_sum === null ? total.answer_ms_sum : (total.answer_ms_sum ?? 0) + row.answer_ms_sum,
      answered: total.answered + row.answered,
    }),
    NONE,
  );
}

/**
 * A webhook's attempts per minute over the last `minutes`: delivered (2xx), retried (failed, and
 * another attempt came or is due) and failed (failed, the last one: the delivery failed), with the mean
 * answer time. Reads the webhook's deliveries touched since the first minute (an attempt updates its delivery).
 */
export async function deliveryStats(
  db: Kysely<Database>,
  webhookUuid: string,
  query: PerMinuteQuery,
  now = new Date(),
): Promise<DeliveryStats> {
  await requireWebhook(db, query.organization_uuid, webhookUuid);
  const { since, minutes } = lastMinutes(now, query.minutes);
  const ok = sql`coalesce(a.status_code between 200 and 299, 0)`;
  const answeredMs = sql`case when a.status_code is not null then a.duration_ms end`;
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_delivery_attempts as a', 'a.delivery_id', 'd.delivery_id')
    .select([
      sql<string>`substr(a.attempted_on, 1, 16)`.as('minute'),
      sql<number>`sum(${ok})`.as('delivered'),
      sql<number>`sum(not ${ok} and d.status = 'failed' and a.attempt = d.attempt_count)`.as('failed'),
      sql<number>`count(*)`.as('attempts'),
      sql<number | null>`sum(${answeredMs})`.as('answer_ms_sum'),
      sql<number>`count(${answeredMs})`.as('answered'),
    ])
    .where('d.webhook_uuid', '=', webhookUuid)
    .where('d.updated_on', '>=', since)
    .where('a.attempted_on', '>=', since)
    .groupBy('minute')
    .execute();
  return {
    since,
    buckets: fillMinutes(minutes, rows, (minute, row) => ({ minute, ...bucketOf(row ?? NONE) })),
    totals: bucketOf(sum(rows)),
  };
}
