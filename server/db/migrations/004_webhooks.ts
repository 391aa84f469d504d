import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organization_settings')
    .addColumn('organization_uuid', 'text', (c) => c.primaryKey().references('organizations.uuid'))
    .addColumn('webhook_retry_schedule', 'text', (c) => c.check(sql`webhook_retry_schedule in ('standard', 'fast')`))
    .addColumn('allow_http_webhooks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_on', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhooks')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organizations.uuid'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_on', 'text', (c) => c.notNull())
    .addColumn('deleted_on', 'text')
    .execute();
  await db.schema.createIndex('webhooks_by_org').on('webhooks').columns(['organization_uuid', 'seq']).execute();

  await db.schema
    .createTable('service_confirmations')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organizations.uuid'))
    .addColumn('qr_code_uuid', 'text', (c) => c.notNull())
    .addColumn('user_uuid', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('CHECK_IN', 'CHECK_OUT', 'DELIVERY')`))
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_on', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('service_confirmations_by_org').on('service_confirmations').columns(['organization_uuid', 'seq']).execute();
  await db.schema
    .createIndex('service_confirmations_by_user')
    .on('service_confirmations')
    .columns(['organization_uuid', 'user_uuid', 'seq'])
    .execute();

  // The outbox: an event and its deliveries are written in the same transaction as the confirmation.
  await db.schema
    .createTable('webhook_events')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_uuid', 'text', (c) => c.notNull().references('organizations.uuid'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('envelope', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('delivery_id', 'text', (c) => c.notNull().unique())
    .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id'))
    .addColumn('webhook_uuid', 'text', (c) => c.notNull().references('webhooks.uuid'))
    .addColumn('organization_uuid', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`))
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('schedule_base', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'integer')
    .addColumn('in_flight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status_reason', 'text')
    .addColumn('claimed_on', 'text')
    .addColumn('created_on', 'text', (c) => c.notNull())
    .addColumn('updated_on', 'text', (c) => c.notNull())
    .execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending' and in_flight = 0`.execute(
    db,
  );
  await db.schema.createIndex('webhook_deliveries_by_webhook').on('webhook_deliveries').columns(['webhook_uuid', 'seq']).execute();

  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.delivery_id'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('attempted_on', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .execute();
  await sql`create unique index webhook_delivery_attempts_by_delivery on webhook_delivery_attempts (delivery_id, attempt)`.execute(db);
}
