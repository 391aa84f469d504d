import { z } from 'zod';
import { typedText } from '../text/typed-text.ts';
import { columnKey } from '../appointments/columns.ts';
import { organizationListQuery, pageSchema } from '../http/pagination.ts';
import { organizationRecordSchema } from '../http/record-schema.ts';
import { importKinds } from '../imports/kinds.ts';
import { type ImportKindId, importKindIds } from '../imports/schemas.ts';

/** The built-in handler: the spec's own column names. */
export const DEFAULT_HANDLER_SLUG = 'default';

const slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(64, 'must be at most 64 characters')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lowercase letters, digits and single hyphens, e.g. acme-jobs')
  .refine(
    (value) => value !== DEFAULT_HANDLER_SLUG,
    `"${DEFAULT_HANDLER_SLUG}" is built in (the spec's column names); choose another slug`,
  );

/** A handler's kind when the request names none: the kind whose files org_identifier selects (appointments, as in the service's API). */
export const DEFAULT_HANDLER_KIND: ImportKindId = (
  Object.values(importKinds).find((entry) => entry.usesHandlers) ?? Object.values(importKinds)[0]
)?.id as ImportKindId;

export const handlerKindSchema = z
  .enum(importKindIds)
  .describe(
    "The import kind whose files it reads: appointments (the default; org_identifier selects it) or qrcodes (the GUI proposes it by the file's headers)",
  );

/** What is wrong with a mapping's columns for a kind (empty when each names one of the kind's columns). */
export function mappingColumnProblems(kind: ImportKindId, mapping: Record<string, string>): string[] {
  const { handlerColumns: columns, handlerColumnsNoun: noun } = importKinds[kind];
  return Object.entries(mapping)
    .filter(([, column]) => !columns.includes(column))
    .map(([title, column]) => `"${title}" maps to ${column}: it must be one of the ${noun}: ${columns.join(', ')}`);
}

export const mappingSchema = z
  .record(
    z.string().trim().min(1, 'a column title must not be empty').max(200),
    z.string().trim().min(1, 'name the column the title fills'),
  )
  .refine((mapping) => Object.keys(mapping).length > 0, 'map at least one column, e.g. {"Job Ref": "job_reference_id"}')
  .superRefine((mapping, ctx) => {
    const byField = new Map<string, string>();
    const byKey = new Map<string, string>();
    for (const [title, target] of Object.entries(mapping)) {
      const other = byField.get(target);
      if (other !== undefined)
        ctx.addIssue({ code: 'custom', message: `the columns "${other}" and "${title}" both map to ${target}; keep one` });
      byField.set(target, title);
      const same = byKey.get(columnKey(title));
      if (same !== undefined)
        ctx.addIssue({
          code: 'custom',
          message: `the column titles "${same}" and "${title}" are the same title (case and spacing are ignored)`,
        });
      byKey.set(columnKey(title), title);
    }
  })
  .describe('A file column title -> the column of the kind it holds, e.g. {"Job Ref": "job_reference_id"}');

export const createImportHandlerBodySchema = z
  .object({
    organization_uuid: z.string().min(1).describe('Organization that owns the handler'),
    name: typedText().trim().min(1).max(200).describe('What the layout is, e.g. "Acme job export"'),
    slug: slug.optional().describe('The org_identifier that selects this handler; default: made from the name'),
    kind: handlerKindSchema.optional(),
    mapping: mappingSchema,
  })
  .superRefine((body, ctx) => {
    for (const message of mappingColumnProblems(body.kind ?? DEFAULT_HANDLER_KIND, body.mapping))
      ctx.addIssue({ code: 'custom', path: ['mapping'], message });
  });
export type CreateImportHandlerBody = z.infer<typeof createImportHandlerBodySchema>;

export const updateImportHandlerBodySchema = z
  .object({ name: typedText().trim().min(1).max(200).optional(), slug: slug.optional(), mapping: mappingSchema.optional() })
  .refine((body) => Object.keys(body).length > 0, 'give at least one of name, slug, mapping');
export type UpdateImportHandlerBody = z.infer<typeof updateImportHandlerBodySchema>;

export const importHandlerSchema = organizationRecordSchema('ImportHandler', {
  name: z.string(),
  slug: z.string(),
  kind: handlerKindSchema,
  mapping: z.record(z.string(), z.string()).describe("A file column title -> the kind's column it holds"),
});
export type ImportHandler = z.infer<typeof importHandlerSchema>;

export const importHandlerPageSchema = pageSchema(importHandlerSchema);
export const importHandlerListQuerySchema = organizationListQuery('import handlers').extend({
  kind: z.enum(importKindIds).optional().describe('Only the handlers of this import kind'),
});
export type ImportHandlerListQuery = z.infer<typeof importHandlerListQuerySchema>;
export const importHandlerParamsSchema = z.object({ uuid: z.string().describe('Import handler uuid') });
