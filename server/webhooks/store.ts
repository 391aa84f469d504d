import type { Kysely, Selectable } from 'kysely';
import type { Database, WebhookTable } from '../db/schema.ts';
import type { EventType } from '../webhook-events/registry.ts';
import type { Webhook, WebhookListQuery, WebhookWithSecret } from './schemas.ts';
import { parseWebhookSchedule } from './retry-schedule.ts';
import { countedSlice, pageSlice } from '../db/counted-page.ts';
import { findLiveRow } from '../db/live-row.ts';

type Row = Selectable<WebhookTable>;
type StoredWebhook = Omit<Row, 'seq'>;

export function toWebhook(row: StoredWebhook): Webhook {
  return {
    uuid: row.uuid,
    created_on: row.created_on,
    updated_on: row.updated_on,
    organization_uuid: row.organization_uuid,
    url: row.url,
    events: JSON.parse(row.events) as EventType[],
    is_active: row.is_active === 1,
    retry_schedule: parseWebhookSchedule(row.retry_schedule),
    failing_since: row.failing_since_ms == null ? null : new Date(row.failing_since_ms).toISOString(),
    disabled_reason: row.disabled_reason ?? null,
    disabled_on: row.disabled_on ?? null,
    sandbox_diagnostics: row.sandbox_diagnostics === 1,
  };
}

/** The registration answer: exactly the webhook object of the service contract, with the secret. */
export function toRegisteredWebhook(row: StoredWebhook): WebhookWithSecret {
  const {
    retry_schedule: _schedule,
    failing_since: _failing,
    disabled_reason: _reason,
    disabled_on: _on,
    sandbox_diagnostics: _diagnostics,
    ...contract
  } = toWebhook(row);
  return { ...contract, secret: row.secret };
}

export function toWebhookWithSecret(row: StoredWebhook): WebhookWithSecret {
  return { ...toWebhook(row), secret: row.secret };
}

export async function insertWebhook(db: Kysely<Database>, row: Omit<WebhookTable, 'seq'>): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

/** A live (not deleted) webhook of the organization. */
export function findWebhook(db: Kysely<Database>, organizationUuid: string, uuid: string): Promise<Row | undefined> {
  return findLiveRow(db, 'webhooks', organizationUuid, uuid);
}

/** The organization's webhooks that are not deleted. */
function liveWebhooks(db: Kysely<Database>, organizationUuid: string) {
  return db.selectFrom('webhooks').where('organization_uuid', '=', organizationUuid).where('deleted_on', 'is', null);
}

/** The organization's webhooks as its users count them: a deleted one stays in the table only for its deliveries' history. */
export async function countLiveWebhooks(db: Kysely<Database>, organizationUuid: string): Promise<number> {
  const row = await liveWebhooks(db, organizationUuid)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listWebhooks(db: Kysely<Database>, query: WebhookListQuery): Promise<{ items: Row[]; total: number }> {
  const base = liveWebhooks(db, query.organization_uuid);
  const { rows, total } = await countedSlice(base, pageSlice(query), (q) => q.selectAll().orderBy('seq', 'desc'));
  return { items: rows, total };
}

export async function updateWebhookRow(
  db: Kysely<Database>,
  uuid: string,
  changes: Partial<
    Pick<
      WebhookTable,
      | 'url'
      | 'events'
      | 'is_active'
      | 'updated_on'
      | 'deleted_on'
      | 'retry_schedule'
      | 'failing_since_ms'
      | 'disabled_reason'
      | 'disabled_on'
      | 'sandbox_diagnostics'
    >
  >,
): Promise<void> {
  await db.updateTable('webhooks').set(changes).where('uuid', '=', uuid).execute();
}
