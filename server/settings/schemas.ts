import { z } from 'zod';
import { DATE_ORDERS } from '../appointments/times.ts';
import { retryScheduleNameSchema } from '../webhooks/retry-schedule.ts';
import { DEFAULT_AUTO_DISABLE_AFTER_S, MAX_AUTO_DISABLE_AFTER_S } from '../webhooks/auto-disable.ts';
import { DEFAULT_DELIVERY_TIMEOUT_MS, MAX_DELIVERY_TIMEOUT_S, MIN_DELIVERY_TIMEOUT_S } from '../webhooks/config.ts';

const autoDisableSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_AUTO_DISABLE_AFTER_S)
  .describe(
    `Seconds a webhook may fail continuously (every attempt) before QR Sandbox disables it; 0 never. Default ${DEFAULT_AUTO_DISABLE_AFTER_S} (24 h), at most ${MAX_AUTO_DISABLE_AFTER_S} (90 days)`,
  );

const timeoutSchema = z
  .number()
  .int()
  .min(MIN_DELIVERY_TIMEOUT_S)
  .max(MAX_DELIVERY_TIMEOUT_S)
  .describe(
    `Seconds one delivery attempt may take, from connecting to the whole answer, before it counts as failed and is retried. Default ${DEFAULT_DELIVERY_TIMEOUT_MS / 1000}, ${MIN_DELIVERY_TIMEOUT_S} to ${MAX_DELIVERY_TIMEOUT_S}. The sandbox's choice: the service's timeout is not documented`,
  );

const dateOrderSchema = z.enum(DATE_ORDERS);

export const settingsSchema = z
  .object({
    organization_uuid: z.string(),
    webhook_retry_schedule: retryScheduleNameSchema.describe(
      'standard: retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; fast: after 1 s, 2 s, 5 s, 10 s, 30 s (demos, tests)',
    ),
    allow_http_webhooks: z
      .boolean()
      .describe('Allow plain http:// webhook URLs to hosts other than this machine (loopback is always allowed)'),
    webhook_auto_disable_after_s: autoDisableSchema.optional(),
    webhook_timeout_s: z
      .number()
      .positive()
      .optional()
      .describe("Seconds one delivery attempt may take (PATCH to change it); the server's default while none is chosen"),
    date_order: dateOrderSchema.describe(
      "How imports read a start date written with slashes, as a spreadsheet shows it: day_first (02/12/2026 11:00 is 2 December 2026), month_first (02/12/2026 is 12 February 2026), iso_only (only 2026-12-02 11:00 is read; slashed dates fail with a reason). Default from the organization's default time zone: Australia, New Zealand, Europe (GB, IT, ...) and India day_first; United States month_first; Canada and elsewhere iso_only",
    ),
    date_order_source: z
      .enum(['setting', 'time_zone'])
      .describe("setting: chosen with PATCH; time_zone: the default from the organization's default time zone's country"),
    updated_on: z.string().nullable().describe('ISO 8601 UTC; null while the defaults apply'),
    data_dir: z
      .string()
      .describe('Absolute path of the data folder of this server (database, uploads, logs); set with --data-dir, read-only here'),
  })
  .meta({ id: 'Settings' });
export type Settings = z.infer<typeof settingsSchema>;

export const settingsQuerySchema = z.object({
  organization_uuid: z.string().min(1).optional().describe("Defaults to the caller's organization"),
});

export const settingsPatchSchema = z
  .strictObject({
    organization_uuid: z.string().min(1).optional().describe("Defaults to the caller's organization"),
    webhook_retry_schedule: retryScheduleNameSchema.optional(),
    allow_http_webhooks: z.boolean().optional(),
    webhook_auto_disable_after_s: autoDisableSchema.nullable().optional().describe('null: back to the default (24 h)'),
    webhook_timeout_s: timeoutSchema.nullable().optional().describe("null: back to the server's default"),
    date_order: dateOrderSchema.nullable().optional().describe('null: back to the default from the time zone'),
  })
  .refine((body) => Object.entries(body).some(([field, value]) => field !== 'organization_uuid' && value !== undefined), {
    message: 'Give webhook_retry_schedule, allow_http_webhooks, webhook_auto_disable_after_s, webhook_timeout_s and/or date_order.',
  });
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
