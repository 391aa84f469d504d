import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import { param, perDatabase, prepare } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { catalogQuery } from '../services/store.ts';
import type { CatalogService } from './compose.ts';
import type { ConfirmationListQuery, ConfirmationStatus, ServiceConfirmation } from './schemas.ts';
import { countedSlice, pageSlice } from '../db/counted-page.ts';

const parse = (row: { data: string }) => JSON.parse(row.data) as ServiceConfirmation;

type RecordStatements = ReturnType<typeof recordStatements>;

/** The statements a new confirmation runs, compiled once per database. */
function recordStatements(db: Db) {
  const k = db.kysely;
  const byUser = k
    .selectFrom('service_confirmations')
    .where('organization_uuid', '=', param('organization_uuid'))
    .where('user_uuid', '=', param('user_uuid'));
  return {
    insert: prepare<'uuid' | 'organization_uuid' | 'qr_code_uuid' | 'user_uuid' | 'status' | 'data' | 'created_on'>(
      db.sqlite,
      k.insertInto('service_confirmations').values({
        uuid: param('uuid'),
        organization_uuid: param('organization_uuid'),
        qr_code_uuid: param('qr_code_uuid'),
        user_uuid: param('user_uuid'),
        status: param<ConfirmationStatus>('status'),
        data: param('data'),
        created_on: param('created_on'),
      }),
    ),
    latest: prepare<'organization_uuid' | 'user_uuid'>(db.sqlite, byUser.select('data').orderBy('seq', 'desc').limit(sql.lit(1))),
    latestAtQrCode: prepare<'organization_uuid' | 'user_uuid' | 'qr_code_uuid'>(
      db.sqlite,
      byUser
        .select(['data', 'status'])
        .where('qr_code_uuid', '=', param('qr_code_uuid'))
        .where('status', 'in', [sql.lit('CHECK_IN' as const), sql.lit('CHECK_OUT' as const)])
        .orderBy('seq', 'desc')
        .limit(sql.lit(1)),
    ),
    services: prepare<'organization_uuid'>(db.sqlite, catalogQuery(k, param('organization_uuid'))),
    categories: prepare<'service_uuid'>(
      db.sqlite,
      k.selectFrom('service_categories').select(['uuid', 'name']).where('service_uuid', '=', param('service_uuid')).orderBy('position'),
    ),
    catalogVersion: prepare<never>(
      db.sqlite,
      k.selectFrom('change_counters').select('value').where('name', '=', sql.lit('service_catalog')),
    ),
    /** Catalogs read, by organization, with the catalog version they were read at. */
    catalogs: new Map<string, { version: number; catalog: readonly CatalogService[] }>(),
  };
}

/** Organizations whose catalog is remembered at most; the cache starts over when full. */
const MAX_CATALOGS = 100;

const statementsOf = perDatabase((db) => recordStatements(db));

/**
 * What a new confirmation reads and writes, synchronously, inside the caller's transaction on the
 * server's connection.
 */
export class ConfirmationWrites {
  private readonly s: RecordStatements;

  constructor(db: Db) {
    this.s = statementsOf(db);
  }

  /** Stores the confirmation; `json` is JSON.stringify(confirmation). */
  insert(confirmation: ServiceConfirmation, json: string): void {
    this.s.insert.run({
      uuid: confirmation.uuid,
      organization_uuid: confirmation.organization_uuid,
      qr_code_uuid: confirmation.qr_code_uuid,
      user_uuid: confirmation.user_uuid,
      status: confirmation.status,
      data: json,
      created_on: confirmation.created_on,
    });
  }

  /** The user's latest confirmation in the organization (the previous one of the next). */
  latestOfUser(organizationUuid: string, userUuid: string): ServiceConfirmation | undefined {
    const row = this.s.latest.get<{ data: string }>({ organization_uuid: organizationUuid, user_uuid: userUuid });
    return row && parse(row);
  }

  /** The user's latest check-in at the QR code, if it is later than their latest check-out there. */
  openCheckIn(organizationUuid: string, userUuid: string, qrCodeUuid: string): ServiceConfirmation | undefined {
    const row = this.s.latestAtQrCode.get<{ data: string; status: string }>({
      organization_uuid: organizationUuid,
      user_uuid: userUuid,
      qr_code_uuid: qrCodeUuid,
    });
    return row?.status === 'CHECK_IN' ? parse(row) : undefined;
  }

  /**
   * The organization's service catalog with each service's categories: confirmations name real
   * services. Read once and kept while the catalog version (moved by every write to services and
   * their categories, in its transaction: server/services/store.ts) reads the same; call it inside
   * the transaction that uses it. The answer is shared: do not change it.
   */
  catalog(organizationUuid: string): readonly CatalogService[] {
    const version = this.s.catalogVersion.get<{ value: number }>({})?.value ?? -1;
    const known = this.s.catalogs.get(organizationUuid);
    if (known?.version === version) return known.catalog;
    const catalog = this.s.services
      .all<{ uuid: string; name: string; code: string | null }>({ organization_uuid: organizationUuid })
      .map((r) =>
        Object.freeze({
          uuid: r.uuid,
          name: r.name,
          code: r.code,
          categories: this.s.categories.all<{ uuid: string; name: string }>({ service_uuid: r.uuid }).map((c) => Object.freeze(c)),
        }),
      );
    if (this.s.catalogs.size >= MAX_CATALOGS) this.s.catalogs.clear();
    this.s.catalogs.set(organizationUuid, { version, catalog: Object.freeze(catalog) });
    return catalog;
  }
}

export async function findConfirmation(
  db: Kysely<Database>,
  organizationUuid: string,
  uuid: string,
): Promise<ServiceConfirmation | undefined> {
  const row = await db
    .selectFrom('service_confirmations')
    .select('data')
    .where('uuid', '=', uuid)
    .where('organization_uuid', '=', organizationUuid)
    .executeTakeFirst();
  return row && parse(row);
}

export async function listConfirmations(
  db: Kysely<Database>,
  query: ConfirmationListQuery,
): Promise<{ items: ServiceConfirmation[]; total: number }> {
  let base = db.selectFrom('service_confirmations').where('organization_uuid', '=', query.organization_uuid);
  if (query.status) base = base.where('status', '=', query.status);
  if (query.qr_code_uuid) base = base.where('qr_code_uuid', '=', query.qr_code_uuid);
  const { rows, total } = await countedSlice(base, pageSlice(query), (q) => q.select('data').orderBy('seq', 'desc'));
  return { items: rows.map(parse), total };
}
