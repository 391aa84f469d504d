import { sql, type Kysely } from 'kysely';

/**
 * An inbox answers by an ordered list of rules (JSON, server/receiver/rule-schemas.ts) instead of one
 * fault setting; the setting becomes the rule for every request. rules_message_count numbers the
 * requests received since the rules were set, for rules that match "the Nth message".
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
}
