import { z } from 'zod';
import { retryScheduleNameSchema } from '../webhooks/retry-schedule.ts';

export const settingsSchema = z
  .object({
    organization_uuid: z.string(),
    webhook_retry_schedule: retryScheduleNameSchema.describe(
      'standard: retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; fast: after 1 s, 2 s, 5 s, 10 s, 30 s (demos, tests)',
    ),
    allow_http_webhooks: z.boolean().describe('Allow plain http:// webhook URLs to hosts other than this machine (loopback is always allowed)'),
    updated_on: z.string().nullable().describe('ISO 8601 UTC; null while the defaults apply'),
    data_dir: z.string().describe('Absolute path of the data folder of this server (database, uploads, logs); set with --data-dir, read-only here'),
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
  })
  .refine((body) => body.webhook_retry_schedule !== undefined || body.allow_http_webhooks !== undefined, {
    message: 'Give webhook_retry_schedule and/or allow_http_webhooks.',
  });
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
