import { randomUUID } from 'node:crypto';
import type { ReceiverDeps, ReceiverStore } from './deps.ts';
import type { ServerConfig } from '../server-config.ts';
import { isLoopbackHost } from '../http/guards.ts';
import { getSettings, serverDefaults } from '../settings/settings.ts';
import type { CheckedTarget } from '../webhooks/pinned-fetch.ts';
import { checkDeliveryTarget } from '../webhooks/url-policy.ts';
import { inboxLimits } from './limits.ts';
import { reachesOwnInbox } from './self-target.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { toPage, type Page } from '../http/pagination.ts';
import { nowIso } from '../time.ts';
import type { CreateInboxBody, Inbox, InboxListQuery, InboxResponse, UpdateInboxBody } from './schemas.ts';
import { INBOX_PATH_PREFIX } from './inbox-path.ts';
import type { InboxRule } from './rule-schemas.ts';
import { parseRules, responseOfRules, rulesWithResponse } from './rules.ts';
import { countMessages, deleteInboxRow, findInbox, insertInbox, listInboxRows, updateInboxRow, type InboxRow } from './store.ts';

/** The address deliveries use: http://127.0.0.1:P/inbox/{uuid} (the bound host when it is not a wildcard). */
export function inboxUrl(config: ServerConfig, uuid: string): string {
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || isLoopbackHost(config.host);
  const host = config.host === '::1' ? '[::1]' : wildcard ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}${INBOX_PATH_PREFIX}${uuid}`;
}

export function inboxSecrets(row: InboxRow): string[] {
  const parsed = JSON.parse(row.secrets) as unknown;
  return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : [];
}

export function inboxRules(row: InboxRow): InboxRule[] {
  return parseRules(row.response_rules);
}

/** The rules a create or update asks for: the rules given, or the older single setting read as a rule. */
function requestedRules(current: InboxRule[], body: { rules?: InboxRule[] | undefined; response?: Partial<InboxResponse> | undefined }) {
  if (body.rules !== undefined) return body.rules;
  if (body.response !== undefined) return rulesWithResponse(current, body.response);
  return null;
}

function toInbox(config: ServerConfig, row: InboxRow, messageCount: number, includeSecrets: boolean): Inbox {
  const secrets = inboxSecrets(row);
  return {
    uuid: row.uuid,
    organization_uuid: row.organization_uuid,
    name: row.name,
    url: inboxUrl(config, row.uuid),
    secret_count: secrets.length,
    ...(includeSecrets ? { secrets } : {}),
    response: responseOfRules(inboxRules(row)),
    rules: inboxRules(row),
    forward_to: row.forward_to,
    forward_answers: row.forward_answers === 1,
    message_count: messageCount,
    dropped_messages: row.dropped_messages,
    max_messages: inboxLimits(config).maxMessages,
    created_on: row.created_on,
    updated_on: row.updated_on,
  };
}

/**
 * Where messages may be relayed: the rules of a webhook URL (https anywhere; http only to this
 * machine unless the organization allows http webhooks; never a metadata address). A forward_to
 * never reaches one of this server's inboxes, however written (see self-target.ts), which would
 * relay in a loop; a one-off replay may (the hop header stops it going further).
 */
export async function checkRelayUrl(
  ctx: ReceiverDeps,
  organizationUuid: string,
  url: string,
  field: string,
  purpose: 'forward' | 'replay' = 'forward',
): Promise<CheckedTarget> {
  const settings = await getSettings(ctx.db.kysely, organizationUuid, serverDefaults(ctx.config));
  const check = await checkDeliveryTarget(url, { allowHttp: settings.allow_http_webhooks }, ctx.config.hostResolver);
  if (!check.ok) throw new ApiError('VALIDATION_ERROR', `${field}: ${check.problem}`, [{ path: field, message: check.problem }]);
  if (
    purpose === 'forward' &&
    reachesOwnInbox(
      ctx.config,
      check.url,
      check.addresses.map((a) => a.address),
    )
  ) {
    throw new ApiError(
      'VALIDATION_ERROR',
      `${field} points at an inbox of this server, which would relay messages in a loop. Replay a message there instead.`,
      [{ path: field, message: 'must not be an inbox of this server' }],
    );
  }
  return check;
}

/** The inbox, when this organization may see it; 404 otherwise. */
export async function requireInbox(ctx: ReceiverStore, organizationUuid: string, uuid: string): Promise<InboxRow> {
  const row = await findInbox(ctx.db.kysely, uuid);
  if (!row || row.organization_uuid !== organizationUuid) throw notFound(`Inbox ${uuid}`);
  return row;
}

export async function createInbox(ctx: ReceiverDeps, body: CreateInboxBody): Promise<Inbox> {
  if (body.forward_to) await checkRelayUrl(ctx, body.organization_uuid, body.forward_to, 'body.forward_to');
  const now = nowIso();
  const row: InboxRow = {
    uuid: randomUUID(),
    organization_uuid: body.organization_uuid,
    name: body.name,
    secrets: JSON.stringify(body.secrets ?? []),
    response_rules: JSON.stringify(requestedRules([], body) ?? []),
    rules_message_count: 0,
    forward_to: body.forward_to ?? null,
    forward_answers: body.forward_answers ? 1 : 0,
    dropped_messages: 0,
    created_on: now,
    updated_on: now,
  };
  await insertInbox(ctx.db.kysely, row);
  return toInbox(ctx.config, row, 0, false);
}

export async function getInbox(ctx: ReceiverDeps, organizationUuid: string, uuid: string, includeSecrets: boolean): Promise<Inbox> {
  const row = await requireInbox(ctx, organizationUuid, uuid);
  const counts = await countMessages(ctx.db.kysely, [row.uuid]);
  return toInbox(ctx.config, row, counts.get(row.uuid) ?? 0, includeSecrets);
}

export async function listInboxes(ctx: ReceiverDeps, query: InboxListQuery): Promise<Page<Inbox>> {
  const { rows, total } = await listInboxRows(ctx.db.kysely, query.organization_uuid, query.page, query.per_page);
  const counts = await countMessages(
    ctx.db.kysely,
    rows.map((r) => r.uuid),
  );
  return toPage({ items: rows.map((row) => toInbox(ctx.config, row, counts.get(row.uuid) ?? 0, false)), total }, query);
}

export async function updateInbox(ctx: ReceiverDeps, organizationUuid: string, uuid: string, body: UpdateInboxBody): Promise<Inbox> {
  const row = await requireInbox(ctx, organizationUuid, uuid);
  if (body.forward_to) await checkRelayUrl(ctx, organizationUuid, body.forward_to, 'body.forward_to');
  const current = inboxRules(row);
  const requested = requestedRules(current, body);
  // Rules given are set anew (the message count starts again); the older setting left as it was
  // (the GUI's edit form sends it with every change of name) changes nothing.
  const rules = body.rules !== undefined || JSON.stringify(requested) !== JSON.stringify(current) ? requested : null;
  await updateInboxRow(ctx.db.kysely, uuid, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.secrets !== undefined ? { secrets: JSON.stringify(body.secrets) } : {}),
    ...(body.forward_to !== undefined ? { forward_to: body.forward_to } : {}),
    ...(body.forward_answers !== undefined ? { forward_answers: body.forward_answers ? 1 : 0 } : {}),
    ...(rules !== null ? { response_rules: JSON.stringify(rules), rules_message_count: 0 } : {}),
    updated_on: nowIso(),
  });
  return getInbox(ctx, organizationUuid, uuid, false);
}

export async function deleteInbox(ctx: ReceiverDeps, organizationUuid: string, uuid: string): Promise<void> {
  await requireInbox(ctx, organizationUuid, uuid);
  await deleteInboxRow(ctx.db.kysely, uuid);
}
