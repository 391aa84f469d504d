/** The scenario file of `qr-sandbox scenario run FILE` (docs/webhook-developer.md#scenario-files). */
import { z } from 'zod';
import { cannotSimulateMessage, type EventType, eventTypeNamed, simulatedEventTypes } from '../webhook-events/registry.ts';
import { simulatedNamesText } from './record-event.ts';

const STEP_FIELDS = ['event', 'redeliver', 'id', 'qr_code', 'data', 'count', 'delay_ms', 'wait_delivered'] as const;
export const MAX_DELAY_MS = 10 * 60_000;

const eventName = z.string().transform((name, ctx): EventType => {
  const type = eventTypeNamed(name);
  if (type && (simulatedEventTypes as readonly string[]).includes(type)) return type;
  ctx.addIssue({
    code: 'custom',
    message: type ? cannotSimulateMessage(type) : `must be ${simulatedNamesText} (or ${simulatedEventTypes.join(', ')})`,
  });
  return z.NEVER;
});

export const scenarioStepSchema = z
  .strictObject({
    event: eventName.optional().describe(`The event to record: ${simulatedNamesText}`),
    redeliver: z.string().min(1).optional().describe('The id of an earlier step: send its events again (same event id)'),
    id: z.string().min(1).optional().describe('A name for this step, for a later redeliver'),
    qr_code: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A QR code uuid, or @label: every step with the same label uses the same QR code, a different one per label when the organization has enough',
      ),
    data: z.record(z.string(), z.unknown()).optional().describe('Confirmation fields that replace the generated ones'),
    count: z.number().int().min(1).max(1000).default(1).describe('Events this step sends, all at once'),
    delay_ms: z.number().int().min(0).max(MAX_DELAY_MS).default(0).describe('Wait this long before the step'),
    wait_delivered: z.boolean().default(false).describe("Before the next step, wait until this step's deliveries have been attempted"),
  })
  .superRefine((step, ctx) => {
    if ((step.event === undefined) === (step.redeliver === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['event'], message: 'give either event or redeliver (one of them, not both)' });
    }
    if (step.redeliver !== undefined) {
      for (const field of ['qr_code', 'data'] as const) {
        if (step[field] !== undefined)
          ctx.addIssue({ code: 'custom', path: [field], message: 'a redeliver step sends the events of its step as they were' });
      }
    }
  });
export type ScenarioStep = z.infer<typeof scenarioStepSchema>;

export const scenarioSchema = z
  .strictObject({
    name: z.string().optional(),
    description: z.string().optional(),
    steps: z.array(scenarioStepSchema).min(1, 'a scenario needs at least one step').max(10_000),
  })
  .superRefine((scenario, ctx) => {
    const seen = new Set<string>();
    scenario.steps.forEach((step, index) => {
      if (step.redeliver !== undefined && !seen.has(step.redeliver)) {
        ctx.addIssue({
          code: 'custom',
          path: ['steps', index, 'redeliver'],
          message: `no earlier step has id "${step.redeliver}"`,
        });
      }
      if (step.id !== undefined) {
        if (seen.has(step.id)) ctx.addIssue({ code: 'custom', path: ['steps', index, 'id'], message: `id "${step.id}" is used twice` });
        seen.add(step.id);
      }
    });
  });
export type Scenario = z.infer<typeof scenarioSchema>;

/** "step 3, field event: must be ..." for each problem, steps counted from 1. */
export function describeScenarioIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const [top, index, ...rest] = issue.path;
    const where: string[] = [];
    if (top === 'steps' && typeof index === 'number') where.push(`step ${index + 1}`);
    else if (top !== undefined) where.push(`field ${String(top)}`);
    const field = top === 'steps' ? rest : [];
    if (field.length > 0) where.push(`field ${field.join('.')}`);
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (${
            top === 'steps' ? `a step has: ${STEP_FIELDS.join(', ')}` : 'a scenario has: name, description, steps'
          })`
        : issue.message;
    return `${where.length > 0 ? where.join(', ') : 'the scenario'}: ${message}`;
  });
}
