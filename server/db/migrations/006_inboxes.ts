import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('inboxes')
    .addColumn('uuid', 'text', (c) => c.primaryKey())
    .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organizations.uuid'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('response_status', 'integer')
    .addColumn('response_delay_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_drop', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('forward_to', 'text')
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_on', 'text', (c) => c.notNull())
    .execute();
  await sql`create index inboxes_by_organization on inboxes (organization_uuid, created_on)`.execute(db);

  await db.schema
    .createTable('inbox_messages')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('inbox_uuid', 'text', (c) => c.notNull().references('inboxes.uuid').onDelete('cascade'))
    .addColumn('organization_uuid', 'text', (c) => c.notNull())
    .addColumn('received_on', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('raw_headers', 'text', (c) => c.notNull())
    .addColumn('body', 'blob', (c) => c.notNull())
    .addColumn('body_truncated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remote_address', 'text')
    .addColumn('analyzed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('decrypted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('decryption_problem', 'text')
    .addColumn('decryption_error', 'text')
    .addColumn('signature_status', 'text', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('verified_with', 'text')
    .addColumn('hints', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('signature', 'text')
    .addColumn('delivery_id', 'text')
    .addColumn('event_id', 'text')
    .addColumn('event_type', 'text')
    .addColumn('plaintext', 'text')
    .addColumn('duplicate_of', 'text')
    .addColumn('duplicate_by', 'text')
    .addColumn('answer', 'text')
    .addColumn('answered_status', 'integer')
    .addColumn('answered_after_ms', 'integer')
    .execute();
  await sql`create index inbox_messages_by_inbox on inbox_messages (inbox_uuid, seq)`.execute(db);
  await sql`create index inbox_messages_by_delivery_id on inbox_messages (inbox_uuid, delivery_id) where delivery_id is not null`.execute(
    db,
  );
  await sql`create index inbox_messages_by_signature on inbox_messages (inbox_uuid, signature) where signature is not null`.execute(db);
  await sql`create index inbox_messages_by_event_id on inbox_messages (inbox_uuid, event_id) where event_id is not null`.execute(db);

  await db.schema
    .createTable('inbox_relays')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('message_uuid', 'text', (c) => c.notNull().references('inbox_messages.uuid').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('forward', 'replay')`))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('requested_on', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_headers', 'text')
    .addColumn('response_excerpt', 'text')
    .execute();
  await sql`create index inbox_relays_by_message on inbox_relays (message_uuid, seq)`.execute(db);
}
