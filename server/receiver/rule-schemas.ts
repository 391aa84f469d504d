import { z } from 'zod';

/** The longest an inbox may wait before answering. */
export const MAX_DELAY_MS = 60_000;

export const MAX_RULES = 50;
export const MAX_RULE_BODY_CHARS = 64 * 1024;
const MAX_COUNT = 1_000_000;

const count = (what: string) => z.number().int().min(1).max(MAX_COUNT).describe(what);

/** Which requests a rule applies to; every condition given must hold, none given matches every request. */
export const ruleMatchSchema = z
  .strictObject({
    event_type: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(20)
      .optional()
      .describe(
        'The event of the delivery (known from what this server sent, an X-Sandbox-Event header, or the decrypted envelope type) is one of these, e.g. ["service_confirmation.check_in"]',
      ),
    attempt: count(
      "The delivery's attempt number is exactly this (1 for a first attempt); known for this server's own deliveries, or from an X-Sandbox-Attempt header",
    ).optional(),
    attempt_at_least: count("The delivery's attempt number is at least this").optional(),
    attempt_at_most: count('The delivery\'s attempt number is at most this ("fail the first N attempts": attempt_at_most N)').optional(),
    message: count('The request is exactly the Nth one the inbox received since its rules were last set (1 for the first)').optional(),
    message_at_least: count('The request is the Nth or later since the rules were last set').optional(),
    message_at_most: count('The request is among the first N since the rules were last set').optional(),
  })
  .superRefine((m, ctx) => {
    if (m.attempt_at_least !== undefined && m.attempt_at_most !== undefined && m.attempt_at_least > m.attempt_at_most) {
      ctx.addIssue({ code: 'custom', path: ['attempt_at_most'], message: 'must be at least attempt_at_least, or no request could match' });
    }
    if (m.message_at_least !== undefined && m.message_at_most !== undefined && m.message_at_least > m.message_at_most) {
      ctx.addIssue({ code: 'custom', path: ['message_at_most'], message: 'must be at least message_at_least, or no request could match' });
    }
  })
  .meta({ id: 'InboxRuleMatch' });
export type RuleMatch = z.infer<typeof ruleMatchSchema>;

/** A rule's own JSON answer body. */
export const inboxRuleBodySchema = z
  .union([z.record(z.string(), z.unknown()), z.array(z.unknown())])
  .meta({ id: 'InboxRuleBody', description: "A rule's own JSON body, sent as given" });

/** How a matching request is answered; fields left out keep the normal answer's. */
export const ruleRespondSchema = z
  .strictObject({
    status: z
      .number()
      .int()
      .min(200)
      .max(599)
      .optional()
      .describe('Answer with this status instead of the normal 200/400 (e.g. 500, 503, 429)'),
    delay_ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_DELAY_MS)
      .optional()
      .describe(
        `Wait this long before answering (0 to ${MAX_DELAY_MS}); above the sender's time limit (the webhook_timeout_s setting, 15 s by default) the sender gives up`,
      ),
    body: z
      .union([z.string().max(MAX_RULE_BODY_CHARS), inboxRuleBodySchema])
      .optional()
      .describe('The answer body (with status): a string is sent as text/plain, an object or array as JSON'),
    drop: z.boolean().optional().describe('Close the connection without any answer (after the delay); wins over status and body'),
  })
  .superRefine((r, ctx) => {
    if (r.body !== undefined && r.status === undefined) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: 'needs a status: give respond.status too (e.g. 503)' });
    }
    if (r.body !== undefined && JSON.stringify(r.body).length > MAX_RULE_BODY_CHARS) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: `must be at most ${MAX_RULE_BODY_CHARS} characters as JSON` });
    }
  })
  .meta({ id: 'InboxRuleRespond' });
export type RuleRespond = z.infer<typeof ruleRespondSchema>;

export const inboxRuleSchema = z
  .strictObject({
    match: ruleMatchSchema.default({}).describe('Conditions, all of which must hold; {} or left out: every request'),
    respond: ruleRespondSchema.describe('The answer; {} answers normally (a rule that shields later ones)'),
  })
  .meta({ id: 'InboxRule' });
export type InboxRule = z.infer<typeof inboxRuleSchema>;

export const inboxRulesSchema = z
  .array(inboxRuleSchema)
  .max(MAX_RULES)
  .describe(
    `How the inbox answers, tried in order: the first rule that matches decides; none matching answers normally (200, or 400 when the delivery cannot be decrypted). At most ${MAX_RULES}.`,
  );
