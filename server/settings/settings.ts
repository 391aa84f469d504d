import path from 'node:path';
import type { Kysely } from 'kysely';
import type { ServerConfig } from '../server-config.ts';
import type { Database } from '../db/schema.ts';
import { defaultRetrySchedule, deliveryTimeoutMs } from '../webhooks/config.ts';
import { DEFAULT_AUTO_DISABLE_AFTER_S } from '../webhooks/auto-disable.ts';
import { nowIso } from '../time.ts';
import type { RetryScheduleName } from '../webhooks/retry-schedule.ts';
import type { Settings, SettingsPatch } from './schemas.ts';
import { defaultDateOrder } from './date-order.ts';
import { findSettings, organizationZone, saveSettings } from './store.ts';

/** What the server was started with: the fallbacks of every organization, and where its data lives. */
export interface ServerDefaults {
  retrySchedule: RetryScheduleName;
  /** An attempt's time limit while the organization chose none. */
  timeoutMs: number;
  dataDir: string;
}

export function serverDefaults(config: ServerConfig): ServerDefaults {
  return { retrySchedule: defaultRetrySchedule(config), timeoutMs: deliveryTimeoutMs(config), dataDir: config.dataDir };
}

/** The organization's settings, with the server's defaults where it has chosen nothing. */
export async function getSettings(db: Kysely<Database>, organizationUuid: string, server: ServerDefaults): Promise<Settings> {
  const row = await findSettings(db, organizationUuid);
  const chosen = row?.date_order ?? null;
  return {
    organization_uuid: organizationUuid,
    webhook_retry_schedule: row?.webhook_retry_schedule ?? server.retrySchedule,
    allow_http_webhooks: row ? row.allow_http_webhooks === 1 : false,
    webhook_auto_disable_after_s: row?.webhook_auto_disable_after_s ?? DEFAULT_AUTO_DISABLE_AFTER_S,
    webhook_timeout_s: row?.webhook_timeout_s ?? server.timeoutMs / 1000,
    date_order: chosen ?? defaultDateOrder((await organizationZone(db, organizationUuid)) ?? ''),
    date_order_source: chosen ? 'setting' : 'time_zone',
    updated_on: row?.updated_on ?? null,
    data_dir: path.resolve(server.dataDir),
  };
}

export async function updateSettings(
  db: Kysely<Database>,
  organizationUuid: string,
  patch: SettingsPatch,
  server: ServerDefaults,
): Promise<Settings> {
  const row = await findSettings(db, organizationUuid);
  await saveSettings(db, {
    organization_uuid: organizationUuid,
    webhook_retry_schedule: patch.webhook_retry_schedule ?? row?.webhook_retry_schedule ?? null,
    allow_http_webhooks: patch.allow_http_webhooks === undefined ? (row?.allow_http_webhooks ?? 0) : Number(patch.allow_http_webhooks),
    date_order: patch.date_order === undefined ? (row?.date_order ?? null) : patch.date_order,
    webhook_auto_disable_after_s:
      patch.webhook_auto_disable_after_s === undefined ? (row?.webhook_auto_disable_after_s ?? null) : patch.webhook_auto_disable_after_s,
    webhook_timeout_s: patch.webhook_timeout_s === undefined ? (row?.webhook_timeout_s ?? null) : patch.webhook_timeout_s,
    updated_on: nowIso(),
  });
  return getSettings(db, organizationUuid, server);
}
