import { sql, type Kysely } from 'kysely';

const PAGE = 500;

interface OldFault {
  uuid: string;
  response_status: number | null;
  response_delay_ms: number;
  response_drop: number;
}

/** The older fault setting as the rule for every request; null for normal answers. */
function ruleOf(row: OldFault): string | null {
  const respond = {
    ...(row.response_status !== null ? { status: row.response_status } : {}),
    ...(row.response_delay_ms > 0 ? { delay_ms: row.response_delay_ms } : {}),
    ...(row.response_drop === 1 ? { drop: true } : {}),
  };
  return Object.keys(respond).length === 0 ? null : JSON.stringify([{ match: {}, respond }]);
}

/**
 * Faults a real endpoint has. An inbox answers by an ordered list of rules (JSON,
 * server/receiver/rule-schemas.ts) instead of one fault setting; the setting becomes the rule for
 * every request, moved a page at a time in primary-key order (each statement uses the key's index).
 * The old columns stay, unused, so that these statements can still be read against the schema.
 * rules_message_count numbers the requests received since the rules were set, for rules that match
 * "the Nth message"; a message keeps which rule answered it (answered_by_rule, 1 for the first).
 * A webhook may have its own retry schedule (a preset name or a JSON list of delays; null follows
 * the organization's setting), and is disabled automatically after failing for the organization's
 * webhook_auto_disable_after_s (null: the default) since failing_since_ms.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table inboxes add column response_rules text not null default '[]'`.execute(db);
  await sql`alter table inboxes add column rules_message_count integer not null default 0`.execute(db);
  let after = '';
  for (;;) {
    const page =
      await sql<OldFault>`select uuid, response_status, response_delay_ms, response_drop from inboxes where uuid > ${after} order by uuid limit ${PAGE}`.execute(
        db,
      );
    for (const row of page.rows) {
      const rules = ruleOf(row);
      if (rules) await sql`update inboxes set response_rules = ${rules} where uuid = ${row.uuid}`.execute(db);
    }
    const last = page.rows.at(-1);
    if (!last || page.rows.length < PAGE) break;
    after = last.uuid;
  }

  await sql`alter table inbox_messages add column answered_by_rule integer`.execute(db);

  await sql`alter table webhooks add column retry_schedule text`.execute(db);
  await sql`alter table webhooks add column failing_since_ms integer`.execute(db);
  await sql`alter table webhooks add column disabled_reason text`.execute(db);
  await sql`alter table webhooks add column disabled_on text`.execute(db);
  await sql`alter table organization_settings add column webhook_auto_disable_after_s integer`.execute(db);
}
