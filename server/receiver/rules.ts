/**
 * An inbox's answer rules: which rule a request meets (the first that matches), and the older
 * single `response` setting read and written as the rule that matches every request.
 */
import { inboxRulesSchema, type InboxRule, type RuleMatch } from './rule-schemas.ts';
import type { InboxResponse } from './schemas.ts';

/** What a rule can match a request by. */
export interface RuleFacts {
  /** The event of the delivery it is (delivery-origin.ts), or the decrypted envelope's type. */
  eventType: string | null;
  /** The attempt number of the delivery it is (delivery-origin.ts); null when unknown. */
  attempt: number | null;
  /** The request's number among those the inbox received since its rules were set; null when not counted. */
  messageNumber: number | null;
}

export function parseRules(json: string): InboxRule[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const checked = inboxRulesSchema.safeParse(parsed);
  return checked.success ? checked.data : [];
}

export function parseAttempt(header: string | undefined): number | null {
  if (header === undefined || !/^\s*\d{1,9}\s*$/.test(header)) return null;
  const attempt = Number(header);
  return attempt >= 1 ? attempt : null;
}

function within(value: number | null, exact: number | undefined, atLeast: number | undefined, atMost: number | undefined): boolean {
  if (exact === undefined && atLeast === undefined && atMost === undefined) return true;
  if (value === null) return false;
  return (
    (exact === undefined || value === exact) && (atLeast === undefined || value >= atLeast) && (atMost === undefined || value <= atMost)
  );
}

export function ruleMatches(match: RuleMatch, facts: RuleFacts): boolean {
  if (match.event_type && (facts.eventType === null || !match.event_type.includes(facts.eventType))) return false;
  return (
    within(facts.attempt, match.attempt, match.attempt_at_least, match.attempt_at_most) &&
    within(facts.messageNumber, match.message, match.message_at_least, match.message_at_most)
  );
}

/** The first rule the request meets, with its position; null: answer normally. */
export function pickRule(rules: InboxRule[], facts: RuleFacts): { index: number; rule: InboxRule } | null {
  const index = rules.findIndex((rule) => ruleMatches(rule.match, facts));
  const rule = rules[index];
  return rule ? { index, rule } : null;
}

/** Whether any rule matches by message number, so the inbox must count what it receives. */
export function countsMessages(rules: InboxRule[]): boolean {
  return rules.some(
    (r) => r.match.message !== undefined || r.match.message_at_least !== undefined || r.match.message_at_most !== undefined,
  );
}

function isCatchAll(rule: InboxRule): boolean {
  return Object.values(rule.match).every((v) => v === undefined) && rule.respond.body === undefined;
}

const NORMAL: InboxResponse = { status: null, delay_ms: 0, drop: false };

/** The older single setting: the last rule for every request (without a body), or normal answers. */
export function responseOfRules(rules: InboxRule[]): InboxResponse {
  const rule = rules.findLast(isCatchAll);
  if (!rule) return NORMAL;
  return { status: rule.respond.status ?? null, delay_ms: rule.respond.delay_ms ?? 0, drop: rule.respond.drop ?? false };
}

/** The rules after a change to the older single setting: its rule for every request is changed, added or removed. */
export function rulesWithResponse(rules: InboxRule[], change: Partial<InboxResponse>): InboxRule[] {
  const merged = { ...responseOfRules(rules), ...change };
  const respond = {
    ...(merged.status !== null ? { status: merged.status } : {}),
    ...(merged.delay_ms > 0 ? { delay_ms: merged.delay_ms } : {}),
    ...(merged.drop ? { drop: true } : {}),
  };
  const at = rules.findLastIndex(isCatchAll);
  const kept = at === -1 ? rules : rules.filter((_, i) => i !== at);
  if (Object.keys(respond).length === 0) return kept;
  const rule: InboxRule = { match: {}, respond };
  return at === -1 ? [...rules, rule] : rules.map((r, i) => (i === at ? rule : r));
}
