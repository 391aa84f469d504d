import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { toPage, type Page } from '../http/pagination.ts';
import { findSettings } from '../settings/store.ts';
import { nowIso } from '../time.ts';
import { nowMicros } from './microtime.ts';
import { cancelPendingDeliveries } from './outbox-store.ts';
import type { RegisterWebhookBody, UpdateWebhookBody, Webhook, WebhookListQuery, WebhookWithSecret } from './schemas.ts';
import {
  findWebhook,
  insertWebhook,
  listWebhooks,
  toRegisteredWebhook,
  toWebhook,
  toWebhookWithSecret,
  updateWebhookRow,
} from './store.ts';
import { checkWebhookUrl } from './url-policy.ts';

/** 32 random bytes as 64 lowercase hex characters. */
export function generateWebhookSecret(): string {
  return randomBytes(32).toString('hex');
}

async function requireAllowedUrl(db: Kysely<Database>, organizationUuid: string, url: string): Promise<string> {
  const settings = await findSettings(db, organizationUuid);
  const check = checkWebhookUrl(url, { allowHttp: settings?.allow_http_webhooks === 1 });
  if (!check.ok)
    throw new ApiError('VALIDATION_ERROR', `Invalid request. body.url: ${check.problem}`, [{ path: 'body.url', message: check.problem }]);
  return check.url.href;
}

export async function registerWebhook(db: Kysely<Database>, body: RegisterWebhookBody): Promise<WebhookWithSecret> {
  const url = await requireAllowedUrl(db, body.organization_uuid, body.url);
  const now = nowMicros();
  const row = {
    uuid: randomUUID(),
    organization_uuid: body.organization_uuid,
    url,
    events: JSON.stringify(body.events),
    is_active: body.is_active ? 1 : 0,
    secret: body.secret ?? generateWebhookSecret(),
    created_on: now,
    updated_on: now,
    deleted_on: null,
    retry_schedule: body.retry_schedule == null ? null : JSON.stringify(body.retry_schedule),
    failing_since_ms: null,
    disabled_reason: null,
    disabled_on: null,
    sandbox_diagnostics: body.sandbox_diagnostics ? 1 : 0,
  };
  await insertWebhook(db, row);
  return toRegisteredWebhook(row);
}

export async function pageOfWebhooks(db: Kysely<Database>, query: WebhookListQuery): Promise<Page<Webhook>> {
  const { items, total } = await listWebhooks(db, query);
  return toPage({ items: items.map(toWebhook), total }, query);
}

/** The organization's live webhook, or 404 (another organization's reads as missing). */
export async function requireWebhook(db: Kysely<Database>, organizationUuid: string, uuid: string) {
  const row = await findWebhook(db, organizationUuid, uuid);
  if (!row) throw notFound(`Webhook ${uuid}`);
  return row;
}

export async function getWebhook(
  db: Kysely<Database>,
  organizationUuid: string,
  uuid: string,
  includeSecret: boolean,
): Promise<Webhook | WebhookWithSecret> {
  const row = await requireWebhook(db, organizationUuid, uuid);
  return includeSecret ? toWebhookWithSecret(row) : toWebhook(row);
}

export async function updateWebhook(
  db: Kysely<Database>,
  organizationUuid: string,
  uuid: string,
  body: UpdateWebhookBody,
): Promise<Webhook> {
  await requireWebhook(db, organizationUuid, uuid);
  const url = body.url === undefined ? undefined : await requireAllowedUrl(db, organizationUuid, body.url);
  await db.transaction().execute(async (trx) => {
    await updateWebhookRow(trx, uuid, {
      ...(url === undefined ? {} : { url }),
      ...(body.events === undefined ? {} : { events: JSON.stringify(body.events) }),
      ...(body.is_active === undefined ? {} : { is_active: body.is_active ? 1 : 0 }),
      ...(body.secret === undefined ? {} : { secret: body.secret }),
      // Active again, by hand: it starts afresh, as if it had never failed.
      ...(body.is_active === true ? { failing_since_ms: null, disabled_reason: null, disabled_on: null } : {}),
      ...(body.retry_schedule === undefined
        ? {}
        : { retry_schedule: body.retry_schedule === null ? null : JSON.stringify(body.retry_schedule) }),
      ...(body.sandbox_diagnostics === undefined ? {} : { sandbox_diagnostics: body.sandbox_diagnostics ? 1 : 0 }),
      updated_on: nowMicros(),
    });
    if (body.is_active === false) await cancelPendingDeliveries(trx, uuid, 'The webhook was deactivated.', nowIso());
  });
  return toWebhook(await requireWebhook(db, organizationUuid, uuid));
}

/** Soft delete: the webhook reads as 404 and its pending deliveries stop. */
export async function deleteWebhook(db: Kysely<Database>, organizationUuid: string, uuid: string): Promise<void> {
  await requireWebhook(db, organizationUuid, uuid);
  await db.transaction().execute(async (trx) => {
    const now = nowMicros();
    await updateWebhookRow(trx, uuid, { deleted_on: now, updated_on: now, is_active: 0 });
    await cancelPendingDeliveries(trx, uuid, 'The webhook was deleted.', nowIso());
  });
}
