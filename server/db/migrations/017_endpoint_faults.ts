import { sql, type Kysely } from 'kysely';

/**
 * Faults a real endpoint has. An inbox answers by an ordered list of rules (JSON, server/receiver/rule-schemas.ts) instead of one
 * fault setting; the setting becomes the rule for every request. rules_message_count numbers the
 * requests received since the rules were set, for rules that match "the Nth message".
 * A webhook may have its own retry schedule (a preset name or a JSON list of delays; null follows
 * the organization's setting), and is disabled automatically after failing for the organization's
 * webhook_auto_disable_after_s (null: the default) since failing_since_ms.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table inboxes add column response_rules text not null default '[]'`.execute(db);
  await sql`alter table inboxes add column rules_message_count integer not null default 0`.execute(db);
  await sql`
    update inboxes set response_rules = json_array(json_object(
      'match', json_object(),
      'respond', json_patch(json_patch(
        case when response_status is null then '{}' else json_object('status', response_status) end,
        case when response_delay_ms > 0 then json_object('delay_ms', response_delay_ms) else '{}' end),
        case when response_drop = 1 then json_object('drop', json('true')) else '{}' end)))
    where response_status is not null or response_delay_ms > 0 or response_drop = 1`.execute(db);
  await sql`alter table inboxes drop column response_status`.execute(db);
  await sql`alter table inboxes drop column response_delay_ms`.execute(db);
  await sql`alter table inboxes drop column response_drop`.execute(db);

  await sql`alter table webhooks add column retry_schedule text`.execute(db);
  await sql`alter table webhooks add column failing_since_ms integer`.execute(db);
  await sql`alter table webhooks add column disabled_reason text`.execute(db);
  await sql`alter table webhooks add column disabled_on text`.execute(db);
  await sql`alter table organization_settings add column webhook_auto_disable_after_s integer`.execute(db);
}
