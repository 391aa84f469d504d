import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { fillMinutes, lastMinutes } from './minutes.ts';
import type { EventsPerMinute, PerMinuteQuery } from './schemas.ts';

/** An organization's webhook events per minute over the last `minutes`, by the time each was created. */
export async function eventsPerMinute(db: Kysely<Database>, query: PerMinuteQuery, now = new Date()): Promise<EventsPerMinute> {
  const { since, minutes } = lastMinutes(now, query.minutes);
  const rows = await db
    .selectFrom('webhook_events')
    .select([sql<string>`substr(created_at, 1, 16)`.as('minute'), sql<number>`count(*)`.as('events')])
    .where('organization_uuid', '=', query.organization_uuid)
    .where('created_at', '>=', since)
    .groupBy('minute')
    .execute();
  const buckets = fillMinutes(minutes, rows, (minute, row) => ({ minute, events: row?.events ?? 0 }));
  return { since, buckets, total: buckets.reduce((total, bucket) => total + bucket.events, 0) };
}
