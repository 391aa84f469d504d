import { sql, type Kysely } from 'kysely';

/**
 * Import handlers (saved column mappings) for every import kind, not only appointments: each
 * names its kind. Existing handlers are appointment handlers. The GUI proposes a saved mapping by
 * the kind of the file being imported: listed by (organization, kind), in slug order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table import_handlers add column kind text not null default 'appointments'`.execute(db);
  await sql`create index import_handlers_by_kind on import_handlers (organization_uuid, kind, slug)`.execute(db);
}
