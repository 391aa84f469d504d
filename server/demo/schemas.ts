import { z } from 'zod';

/** What the demo seed added to an organization, or why it added nothing. */
export const demoSeedResultSchema = z
  .object({
    seeded: z.boolean().describe('false when the organization already had data and nothing was added'),
    reason: z.string().optional().describe('Why nothing was added'),
    services_added: z.number().int().optional().describe('Services of the demo catalog that were missing and were added'),
    inbox_url: z.string().optional().describe('The demo inbox, which receives the webhook deliveries'),
    webhook_uuid: z.string().optional(),
    flaky_inbox_url: z
      .string()
      .optional()
      .describe('The flaky app: an inbox whose rules answer 503 to the first two attempts of each check-out'),
    flaky_webhook_uuid: z.string().optional().describe('The webhook to the flaky app, retrying after 5, 10 and 30 s'),
    broken_signature_message_uuid: z
      .string()
      .optional()
      .describe('The message of the demo inbox sealed with a wrong secret (signature invalid), for the decrypt doctor'),
    import_task_uuid: z.string().optional().describe('The QR code import of the demo sites'),
    sites: z.number().int().optional().describe('QR code addresses the import inserted'),
    excluded_sites: z.number().int().optional(),
    appointment_task_uuid: z.string().optional().describe('The appointment import of the demo week'),
    appointments: z.number().int().optional().describe('Appointments the import upserted'),
    excluded_appointments: z.number().int().optional(),
  })
  .meta({ id: 'DemoSeedResult' });
export type DemoSeedResult = z.infer<typeof demoSeedResultSchema>;

/** One step of seeding (and of a reset), for progress: `progress` is the step's own percentage when it has one. */
export const demoStepSchema = z.object({
  step: z.number().int(),
  of: z.number().int(),
  label: z.string(),
  progress: z.number().optional(),
});
export type DemoStep = z.infer<typeof demoStepSchema>;

export const demoResetBodySchema = z.object({
  organization_uuid: z.string().min(1).describe("The organization to reset: the caller's own"),
});

export const deletedCountsSchema = z.object({
  qrcodes: z.number().int(),
  tags: z.number().int(),
  appointments: z.number().int(),
  services: z.number().int(),
  import_handlers: z.number().int(),
  tasks: z.number().int(),
  excluded_rows: z.number().int(),
  webhooks: z.number().int(),
  webhook_events: z.number().int(),
  deliveries: z.number().int(),
  service_confirmations: z.number().int(),
  inboxes: z.number().int(),
  inbox_messages: z.number().int(),
});
export type DeletedCounts = z.infer<typeof deletedCountsSchema>;

export const demoResetResultSchema = z
  .object({
    deleted: deletedCountsSchema.describe('Rows deleted, by kind (soft-deleted ones included)'),
    seeded: demoSeedResultSchema,
  })
  .meta({ id: 'DemoResetResult' });
export type DemoResetResult = z.infer<typeof demoResetResultSchema>;

/** Data of the `demo.reset` live event: a step of a reset, or its end. */
export type DemoResetEvent = DemoStep & { done?: boolean };
