import { countOf } from '../../common/count-words.ts';
import fs from 'node:fs';
import path from 'node:path';
import type { Inbox } from '../receiver/schemas.ts';
import type { InboxRule, RuleMatch, RuleRespond } from '../receiver/rule-schemas.ts';
import { ServiceError } from '../remote/service-client.ts';
import { StartupError } from '../startup-error.ts';
import { dataDirHelp, type Command, type Options, type Values } from './command.ts';
import { clientOptions } from './client-command.ts';
import { connectionHelp, resolveTarget } from './connection.ts';

const common: Options = { inbox: { type: 'string' }, ...clientOptions };
const commonHelp = {
  inbox: 'The inbox uuid (required; the GUI shows it on the inbox page, GET /api/inboxes lists them)',
  json: 'Print {"inbox_uuid", "rules"} as one JSON line on stdout instead of the table',
  ...connectionHelp,
  ...dataDirHelp,
};
const connection = '[--data-dir DIR | --url URL --key KEY:SECRET | --profile NAME]';

function range(name: string, exact?: number, atLeast?: number, atMost?: number): string | null {
  if (exact !== undefined) return `${name} ${exact}`;
  if (atLeast !== undefined && atMost !== undefined) return `${name} ${atLeast}-${atMost}`;
  if (atLeast !== undefined) return `${name} >= ${atLeast}`;
  if (atMost !== undefined) return `${name} <= ${atMost}`;
  return null;
}

export function describeMatch(match: RuleMatch): string {
  const parts = [
    match.event_type ? `event ${match.event_type.join('|')}` : null,
    range('attempt', match.attempt, match.attempt_at_least, match.attempt_at_most),
    range('message', match.message, match.message_at_least, match.message_at_most),
  ].filter((p): p is string => p !== null);
  return parts.length ? parts.join(', ') : 'every request';
}

export function describeRespond(respond: RuleRespond): string {
  const delay = respond.delay_ms ? ` after ${respond.delay_ms} ms` : '';
  if (respond.drop) return `drop the connection${delay}`;
  if (respond.status !== undefined) return `${respond.status}${respond.body !== undefined ? ' with its body' : ''}${delay}`;
  return `normal answer${delay}`;
}

function print(inbox: Inbox, values: Values): void {
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ inbox_uuid: inbox.uuid, rules: inbox.rules })}\n`);
    return;
  }
  const lines = inbox.rules.map((rule, i) => `  ${i + 1}. ${describeMatch(rule.match).padEnd(32)} -> ${describeRespond(rule.respond)}`);
  const head =
    inbox.rules.length === 0
      ? `Inbox ${inbox.uuid} (${inbox.name}) has no rules.`
      : `Inbox ${inbox.uuid} (${inbox.name}): ${countOf(inbox.rules.length, 'rule')}, the first that matches answers.`;
  process.stdout.write(
    `${[head, ...lines, 'Requests no rule matches are answered normally: 200, or 400 when they cannot be decrypted.'].join('\n')}\n`,
  );
}

function inboxOf(values: Values): string {
  if (typeof values.inbox !== 'string' || values.inbox === '') throw new StartupError('Give the inbox: --inbox UUID.');
  return values.inbox;
}

function readRulesFile(file: string): unknown {
  const resolved = file === '-' ? null : path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  let text: string;
  try {
    text = fs.readFileSync(resolved ?? 0, 'utf8');
  } catch (error) {
    throw new StartupError(`Cannot read ${resolved ?? 'stdin'}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StartupError(`${resolved ?? 'stdin'} is not JSON (${(error as Error).message}); it holds a list of rules, see --help.`);
  }
  // {"rules": [...]} as GET /api/inboxes/uuid/{uuid} or `rules list --json` print it is taken too.
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && 'rules' in parsed ? parsed.rules : parsed;
}

function positiveInt(values: Values, name: string): number | undefined {
  const given = values[name];
  if (given === undefined) return undefined;
  const n = typeof given === 'string' && /^\d+$/.test(given) ? Number(given) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new StartupError(`--${name} takes a whole number of at least 1, not "${String(given)}".`);
  return n;
}

/** The rules `rules set` asks for: a file, or the "fail the first N attempts" preset. */
function requestedRules(values: Values): unknown {
  const failFirst = positiveInt(values, 'fail-first');
  const status = positiveInt(values, 'status');
  if (typeof values.file === 'string') {
    if (failFirst !== undefined || status !== undefined) throw new StartupError('Give --file or --fail-first, not both.');
    return readRulesFile(values.file);
  }
  if (failFirst === undefined) throw new StartupError('Give the rules: --file rules.json, or --fail-first N [--status 503].');
  const rule: InboxRule = { match: { attempt_at_most: failFirst }, respond: { status: status ?? 503 } };
  return [rule];
}

async function withInbox(values: Values, run: (request: (init?: RequestInit) => Promise<Inbox>) => Promise<Inbox>): Promise<number> {
  const uuid = inboxOf(values);
  const target = await resolveTarget(values);
  try {
    const inbox = await run((init) => target.client.json<Inbox>(`/api/inboxes/uuid/${encodeURIComponent(uuid)}`, init));
    print(inbox, values);
    return 0;
  } catch (error) {
    if (error instanceof ServiceError) throw new StartupError(error.message);
    throw error;
  }
}

function patchRules(rules: unknown): RequestInit {
  return { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules }) };
}

const exitCodes = 'Exit 0 when done; 2 when the arguments, the rules or the connection are wrong (the message says which).';

export const inboxRulesListCommand: Command = {
  name: 'inbox rules list',
  summary: "Show how an inbox answers: its rules in order. Exit 0; 2 when the inbox or the server can't be reached.",
  usage: `inbox rules list --inbox UUID [--json] ${connection}`,
  options: common,
  help: commonHelp,
  examples: [
    'qr-sandbox inbox rules list --inbox 0b7a3c1e-... --data-dir .qr-sandbox',
    "qr-sandbox inbox rules list --inbox 0b7a3c1e-... --json | jq '.rules | length'",
  ],
  run: (values) => withInbox(values, (request) => request()),
};

export const inboxRulesSetCommand: Command = {
  name: 'inbox rules set',
  summary: `Replace an inbox's rules with those of a JSON file, or with "fail the first N attempts". ${exitCodes}`,
  usage: `inbox rules set --inbox UUID (--file RULES.json | --fail-first N [--status 503]) [--json] ${connection}`,
  options: { ...common, file: { type: 'string' }, 'fail-first': { type: 'string' }, status: { type: 'string' } },
  help: {
    inbox: commonHelp.inbox,
    file: 'A JSON list of rules, [{"match": {...}, "respond": {...}}, ...] (or {"rules": [...]}); - reads stdin',
    'fail-first': 'One rule: answer attempts 1 to N with --status, later attempts normally',
    status: 'The status for --fail-first (default 503)',
    json: commonHelp.json,
    ...connectionHelp,
    ...dataDirHelp,
  },
  examples: [
    'qr-sandbox inbox rules set --inbox 0b7a3c1e-... --fail-first 2 --status 503',
    'qr-sandbox inbox rules set --inbox 0b7a3c1e-... --file rules.json',
    `echo '[{"match":{"event_type":["service_confirmation.check_out"]},"respond":{"drop":true}}]' | qr-sandbox inbox rules set --inbox 0b7a3c1e-... --file -`,
  ],
  run: (values) => {
    const rules = requestedRules(values);
    return withInbox(values, (request) => request(patchRules(rules)));
  },
};

export const inboxRulesClearCommand: Command = {
  name: 'inbox rules clear',
  summary: `Remove all of an inbox's rules: it answers normally again. ${exitCodes}`,
  usage: `inbox rules clear --inbox UUID [--json] ${connection}`,
  options: common,
  help: commonHelp,
  examples: ['qr-sandbox inbox rules clear --inbox 0b7a3c1e-...'],
  run: (values) => withInbox(values, (request) => request(patchRules([]))),
};
