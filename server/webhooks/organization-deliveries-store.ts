import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { OrganizationDeliveryQuery } from './bulk-delivery-schemas.ts';
import { deliveriesPage } from './outbox-store.ts';
import type { Delivery } from './schemas.ts';

type Filters = Pick<OrganizationDeliveryQuery, 'organization_uuid' | 'status' | 'since' | 'webhook_uuid'>;

/** The organization's deliveries that match (index by organization, or by organization and status). */
function matching(db: Kysely<Database>, filters: Filters) {
  let base = db.selectFrom('webhook_deliveries').where('organization_uuid', '=', filters.organization_uuid);
  if (filters.status) base = base.where('status', '=', filters.status);
  if (filters.webhook_uuid) base = base.where('webhook_uuid', '=', filters.webhook_uuid);
  if (filters.since) base = base.where('created_on', '>=', filters.since);
  return base;
}

/** A page of the organization's deliveries across its webhooks, newest first, each with its attempts. */
export async function listOrganizationDeliveries(
  db: Kysely<Database>,
  query: OrganizationDeliveryQuery,
): Promise<{ items: Delivery[]; total: number }> {
  return deliveriesPage(db, matching(db, query), query);
}

/** The webhooks (live or deleted) the deliveries belong to, for what was sent to each. */
export function webhooksByUuid(db: Kysely<Database>, organizationUuid: string, uuids: string[]) {
  if (uuids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('webhooks')
    .select(['uuid', 'organization_uuid', 'url', 'secret'])
    .where('uuid', 'in', uuids)
    .where('organization_uuid', '=', organizationUuid)
    .execute();
}

type RedeliverFilters = Pick<OrganizationDeliveryQuery, 'organization_uuid' | 'since' | 'webhook_uuid'>;

function failedOf(db: Kysely<Database>, filters: RedeliverFilters, sendable: boolean) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.uuid', 'd.webhook_uuid')
    .where('d.organization_uuid', '=', filters.organization_uuid)
    .where('d.status', '=', 'failed')
    .$if(filters.webhook_uuid !== undefined, (q) => q.where('d.webhook_uuid', '=', filters.webhook_uuid ?? ''))
    .$if(filters.since !== undefined, (q) => q.where('d.created_on', '>=', filters.since ?? ''))
    .where((eb) =>
      sendable
        ? eb.and([eb('w.is_active', '=', 1), eb('w.deleted_on', 'is', null)])
        : eb.or([eb('w.is_active', '!=', 1), eb('w.deleted_on', 'is not', null)]),
    );
}

/**
 * The failed deliveries a bulk redeliver sends again (oldest first, at most `limit`, only those of
 * active webhooks), how many such there are in all, and how many it leaves because their webhook
 * is inactive or deleted.
 */
export async function failedDeliveriesToResend(
  db: Kysely<Database>,
  filters: RedeliverFilters,
  limit: number,
): Promise<{ rows: { delivery_id: string; webhook_uuid: string }[]; total: number; unsendable: number }> {
  const count = async (sendable: boolean) =>
    Number(
      (
        await failedOf(db, filters, sendable)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const rows = await failedOf(db, filters, true).select(['d.delivery_id', 'd.webhook_uuid']).orderBy('d.seq').limit(limit).execute();
  return { rows, total: await count(true), unsendable: await count(false) };
}
