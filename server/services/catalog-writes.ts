import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { param, perDatabase, prepare } from '../db/prepared.ts';
import { nowIso } from '../time.ts';
import { catalogKey } from './store.ts';

/** What the catalog's writes run on: kysely builds the statements, better-sqlite3 runs them synchronously. */
export type CatalogDb = Pick<Db, 'kysely' | 'sqlite'>;

export interface CatalogClash {
  uuid: string;
  name: string;
  code: string | null;
  name_key: string;
  code_key: string | null;
}

/** A service as written: its name, code (null: none) and categories' names in order. */
export interface ServiceWrite {
  name: string;
  code: string | null;
  categories: readonly string[];
}

/** A service's change: only the fields given change; `categories` replaces them all. */
export interface ServiceChange {
  name?: string;
  code?: string | null;
  categories?: readonly string[];
}

/** The statements of the catalog's writes, prepared once per connection. */
const statementsOf = perDatabase((db: CatalogDb) => {
  const k = db.kysely;
  const live = (q: ReturnType<typeof k.selectFrom<'services'>>) =>
    q.where('organization_uuid', '=', param('org')).where('deleted_on', 'is', null).where('uuid', '!=', param('except'));
  const clashColumns = ['uuid', 'name', 'code', 'name_key', 'code_key'] as const;
  return {
    byName: prepare<'org' | 'except' | 'key'>(
      db.sqlite,
      live(k.selectFrom('services')).select(clashColumns).where('name_key', '=', param('key')),
    ),
    byCode: prepare<'org' | 'except' | 'key'>(
      db.sqlite,
      live(k.selectFrom('services')).select(clashColumns).where('code_key', '=', param('key')),
    ),
    insert: prepare<'uuid' | 'org' | 'name' | 'name_key' | 'code' | 'code_key' | 'now'>(
      db.sqlite,
      k.insertInto('services').values({
        uuid: param('uuid'),
        organization_uuid: param('org'),
        name: param('name'),
        name_key: param('name_key'),
        code: param('code'),
        code_key: param('code_key'),
        created_on: param('now'),
        updated_on: param('now'),
      }),
    ),
    rename: prepare<'uuid' | 'name' | 'name_key' | 'now'>(
      db.sqlite,
      k
        .updateTable('services')
        .set({ name: param('name'), name_key: param('name_key'), updated_on: param('now') })
        .where('uuid', '=', param('uuid')),
    ),
    recode: prepare<'uuid' | 'code' | 'code_key' | 'now'>(
      db.sqlite,
      k
        .updateTable('services')
        .set({ code: param('code'), code_key: param('code_key'), updated_on: param('now') })
        .where('uuid', '=', param('uuid')),
    ),
    exists: prepare<'uuid' | 'org'>(
      db.sqlite,
      k
        .selectFrom('services')
        .select('uuid')
        .where('uuid', '=', param('uuid'))
        .where('organization_uuid', '=', param('org'))
        .where('deleted_on', 'is', null),
    ),
    remove: prepare<'uuid' | 'now'>(
      db.sqlite,
      k
        .updateTable('services')
        .set({ deleted_on: param('now') })
        .where('uuid', '=', param('uuid')),
    ),
    touch: prepare<'uuid' | 'now'>(
      db.sqlite,
      k
        .updateTable('services')
        .set({ updated_on: param('now') })
        .where('uuid', '=', param('uuid')),
    ),
    categories: prepare<'service'>(
      db.sqlite,
      k.selectFrom('service_categories').select(['uuid', 'name']).where('service_uuid', '=', param('service')).orderBy('position'),
    ),
    dropCategories: prepare<'service'>(db.sqlite, k.deleteFrom('service_categories').where('service_uuid', '=', param('service'))),
    addCategory: prepare<'uuid' | 'service' | 'name' | 'position'>(
      db.sqlite,
      k.insertInto('service_categories').values({
        uuid: param('uuid'),
        service_uuid: param('service'),
        name: param('name'),
        position: param<number>('position'),
      }),
    ),
    // See moveCatalogVersion (store.ts): every write to the catalog moves it in the same transaction.
    moveVersion: prepare<never>(
      db.sqlite,
      k
        .updateTable('change_counters')
        .set((eb) => ({ value: eb('value', '+', param<number>('one')) }))
        .where('name', '=', param('counter')),
      { one: 1, counter: 'service_catalog' },
    ),
  };
});

/**
 * The one write path of the services table (the API and the services import): synchronous, so
 * it runs inside an import batch's transaction or in writeNow's, never between awaits. Names
 * and codes are unique in an organization among live services, ignoring case; every write moves
 * the catalog version.
 */
export class CatalogWrites {
  private readonly s: ReturnType<typeof statementsOf>;

  constructor(db: CatalogDb) {
    this.s = statementsOf(db as Db);
  }

  /** A live service of the organization, other than `exceptUuid`, with this name or code (ignoring case). */
  clash(organizationUuid: string, change: { name?: string; code?: string | null }, exceptUuid = ''): CatalogClash | undefined {
    const args = { org: organizationUuid, except: exceptUuid };
    return (
      (change.name === undefined ? undefined : this.s.byName.get<CatalogClash>({ ...args, key: catalogKey(change.name) })) ??
      (change.code ? this.s.byCode.get<CatalogClash>({ ...args, key: catalogKey(change.code) }) : undefined)
    );
  }

  /** A live service by its code (when given), else by its name. */
  find(organizationUuid: string, write: { name: string; code: string | null }): CatalogClash | undefined {
    const args = { org: organizationUuid, except: '' };
    const byCode = write.code ? this.s.byCode.get<CatalogClash>({ ...args, key: catalogKey(write.code) }) : undefined;
    return byCode ?? this.s.byName.get<CatalogClash>({ ...args, key: catalogKey(write.name) });
  }

  /** Adds a service (the caller has checked for a clash); answers its uuid. */
  insert(organizationUuid: string, write: ServiceWrite): string {
    const uuid = randomUUID();
    this.s.insert.run({
      uuid,
      org: organizationUuid,
      name: write.name,
      name_key: catalogKey(write.name),
      code: write.code,
      code_key: write.code ? catalogKey(write.code) : null,
      now: nowIso(),
    });
    this.replaceCategories(uuid, write.categories);
    this.s.moveVersion.run({});
    return uuid;
  }

  /** Changes a service (the caller has checked for a clash); categories keep their uuid by name. */
  update(uuid: string, change: ServiceChange): void {
    const now = nowIso();
    if (change.name !== undefined) this.s.rename.run({ uuid, name: change.name, name_key: catalogKey(change.name), now });
    if (change.code !== undefined) {
      this.s.recode.run({ uuid, code: change.code, code_key: change.code === null ? null : catalogKey(change.code), now });
    }
    if (change.name === undefined && change.code === undefined) this.s.touch.run({ uuid, now });
    if (change.categories) this.replaceCategories(uuid, change.categories);
    this.s.moveVersion.run({});
  }

  /** Whether the organization has this live service. */
  exists(organizationUuid: string, uuid: string): boolean {
    return this.s.exists.get({ uuid, org: organizationUuid }) !== undefined;
  }

  /** Soft delete: appointments keep pointing at it, imports no longer match it. */
  remove(uuid: string): void {
    this.s.remove.run({ uuid, now: nowIso() });
    this.s.moveVersion.run({});
  }

  /** A service's categories' names, in order. */
  categoryNames(uuid: string): string[] {
    return this.s.categories.all<{ name: string }>({ service: uuid }).map((c) => c.name);
  }

  private replaceCategories(uuid: string, names: readonly string[]): void {
    const kept = new Map(
      this.s.categories.all<{ uuid: string; name: string }>({ service: uuid }).map((c) => [c.name.toLowerCase(), c.uuid]),
    );
    this.s.dropCategories.run({ service: uuid });
    names.forEach((name, position) => {
      this.s.addCategory.run({ uuid: kept.get(name.toLowerCase()) ?? randomUUID(), service: uuid, name, position });
    });
  }
}
