/** An inbox's answer rules as the editor's text fields hold them, and back. */
import type { Schemas } from '../../api/types.ts';
import { type EventType, webhookEvents } from '../../api/webhook-events.ts';

export type InboxRule = Schemas['InboxRule'];
type Match = InboxRule['match'];
type Respond = InboxRule['respond'];

export interface RuleDraft {
  /** Keeps a rule's fields with it when rules move. */
  key: number;
  events: EventType[];
  attemptFrom: string;
  attemptTo: string;
  messageFrom: string;
  messageTo: string;
  status: string;
  delayMs: string;
  body: string;
  drop: boolean;
}

let nextKey = 1;

export function emptyRule(): RuleDraft {
  return {
    key: nextKey++,
    events: [],
    attemptFrom: '',
    attemptTo: '',
    messageFrom: '',
    messageTo: '',
    status: '',
    delayMs: '',
    body: '',
    drop: false,
  };
}

/** "Fail the first N attempts with STATUS, then answer normally": one rule. */
export function failFirstRule(attempts: number, status: number): RuleDraft {
  return { ...emptyRule(), attemptTo: String(attempts), status: String(status) };
}

const text = (n: number | undefined) => (n === undefined ? '' : String(n));

function bodyText(body: Respond['body']): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : JSON.stringify(body, null, 2);
}

export function draftOf(rule: InboxRule): RuleDraft {
  const { match, respond } = rule;
  const known = new Set<string>(webhookEvents().map((event) => event.type));
  return {
    key: nextKey++,
    events: (match.event_type ?? []).filter((e): e is EventType => known.has(e)),
    attemptFrom: text(match.attempt ?? match.attempt_at_least),
    attemptTo: text(match.attempt ?? match.attempt_at_most),
    messageFrom: text(match.message ?? match.message_at_least),
    messageTo: text(match.message ?? match.message_at_most),
    status: text(respond.status),
    delayMs: text(respond.delay_ms),
    body: bodyText(respond.body),
    drop: respond.drop ?? false,
  };
}

/** Numbers as typed: the server names the problem when one is out of range. */
const number = (value: string) => Number(value.trim());
const given = (value: string) => value.trim() !== '';

function range(from: string, to: string, exact: 'attempt' | 'message'): Match {
  if (given(from) && given(to) && from.trim() === to.trim()) return { [exact]: number(from) };
  return {
    ...(given(from) ? { [`${exact}_at_least`]: number(from) } : {}),
    ...(given(to) ? { [`${exact}_at_most`]: number(to) } : {}),
  };
}

/** A body that reads as a JSON object or list is sent as JSON; anything else as text. */
function bodyOf(value: string): Respond['body'] {
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'object' && parsed !== null) return parsed as Respond['body'];
  } catch {
    // text
  }
  return value;
}

export function ruleOf(draft: RuleDraft): InboxRule {
  return {
    match: {
      ...(draft.events.length ? { event_type: draft.events } : {}),
      ...range(draft.attemptFrom, draft.attemptTo, 'attempt'),
      ...range(draft.messageFrom, draft.messageTo, 'message'),
    },
    respond: {
      ...(given(draft.status) ? { status: number(draft.status) } : {}),
      ...(given(draft.delayMs) ? { delay_ms: number(draft.delayMs) } : {}),
      ...(draft.body !== '' ? { body: bodyOf(draft.body) } : {}),
      ...(draft.drop ? { drop: true } : {}),
    },
  };
}

/** Problems found before sending, by the API's field path (rules.0.match.attempt_at_most). */
export function ruleProblems(drafts: RuleDraft[]): Record<string, string> {
  const problems: Record<string, string> = {};
  const whole = (value: string) => !given(value) || /^\d+$/.test(value.trim());
  drafts.forEach((d, i) => {
    const at = `rules.${i}`;
    if (!whole(d.attemptFrom)) problems[`${at}.match.attempt_at_least`] = 'An attempt is a whole number, 1 or more.';
    if (!whole(d.attemptTo)) problems[`${at}.match.attempt_at_most`] = 'An attempt is a whole number, 1 or more.';
    if (!whole(d.messageFrom)) problems[`${at}.match.message_at_least`] = 'A message number is a whole number, 1 or more.';
    if (!whole(d.messageTo)) problems[`${at}.match.message_at_most`] = 'A message number is a whole number, 1 or more.';
    if (given(d.status) && !/^\d{3}$/.test(d.status.trim())) problems[`${at}.respond.status`] = 'A status is a number from 200 to 599.';
    if (!whole(d.delayMs)) problems[`${at}.respond.delay_ms`] = 'A delay is a whole number of milliseconds, 0 to 60000.';
    if (d.body !== '' && !given(d.status) && !d.drop) problems[`${at}.respond.body`] = 'A body needs a status: give one, e.g. 503.';
  });
  return problems;
}

function span(name: string, from: number | undefined, to: number | undefined): string | null {
  if (from !== undefined && to !== undefined) return from === to ? `${name} ${from}` : `${name}s ${from}–${to}`;
  if (from !== undefined) return `${name} ${from} on`;
  if (to !== undefined) return `first ${to} ${name}${to === 1 ? '' : 's'}`;
  return null;
}

/** "first 2 attempts → 503", "check-out → drop", for lists and headers. */
export function ruleSummary(rule: InboxRule): string {
  const { match, respond } = rule;
  const when = [
    match.event_type?.join(' or ') ?? null,
    span('attempt', match.attempt ?? match.attempt_at_least, match.attempt ?? match.attempt_at_most),
    span('message', match.message ?? match.message_at_least, match.message ?? match.message_at_most),
  ].filter((p): p is string => p !== null);
  const delay = respond.delay_ms ? ` after ${respond.delay_ms >= 1000 ? `${respond.delay_ms / 1000} s` : `${respond.delay_ms} ms`}` : '';
  const answer = respond.drop ? 'drop' : respond.status !== undefined ? String(respond.status) : 'normal';
  return `${when.length ? when.join(', ') : 'every request'} → ${answer}${delay}`;
}

/** "answers by 2 rules", or null while it answers normally. */
export function rulesSummary(rules: InboxRule[]): string | null {
  const [first] = rules;
  if (!first) return null;
  return rules.length === 1 ? ruleSummary(first) : `${rules.length} answer rules`;
}
