import { z } from 'zod';
import { searchTerm } from '../text/search-term.ts';
import { typedText } from '../text/typed-text.ts';
import { organizationListQuery, pageSchema } from '../http/pagination.ts';
import { organizationRecordSchema } from '../http/record-schema.ts';

const name = typedText().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const code = typedText().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const categoryInput = z.object({ name: name.describe('Category name') });
const categories = z
  .array(categoryInput)
  .max(50, 'at most 50 categories')
  .refine((list) => new Set(list.map((c) => c.name.toLowerCase())).size === list.length, 'category names must differ from each other');

export const createServiceBodySchema = z.object({
  organization_uuid: z.string().min(1).describe('Organization whose catalog gets the service'),
  name: name.describe('Service name, unique in the organization ignoring case; imports match `service` against it'),
  code: code.nullish().describe('Service code, unique in the organization ignoring case; imports match `service_code` against it'),
  categories: categories.default([]).describe('Categories, e.g. [{"name": "Maintenance"}]'),
});
export type CreateServiceBody = z.infer<typeof createServiceBodySchema>;

export const updateServiceBodySchema = z
  .object({
    name: name.optional(),
    code: code.nullable().optional().describe('null removes the code'),
    categories: categories.optional().describe('Replaces all categories'),
  })
  .refine((body) => Object.keys(body).length > 0, 'give at least one of name, code, categories');
export type UpdateServiceBody = z.infer<typeof updateServiceBodySchema>;

export const serviceCategorySchema = z.object({ uuid: z.string(), name: z.string() });

export const serviceSchema = organizationRecordSchema('Service', {
  name: z.string(),
  code: z.string().nullable(),
  categories: z.array(serviceCategorySchema),
});
export type Service = z.infer<typeof serviceSchema>;

export const servicePageSchema = pageSchema(serviceSchema);

export const serviceListQuerySchema = organizationListQuery('services').extend({
  search: searchTerm().optional().describe('Only services whose name or code contains this text, ignoring case'),
});
export type ServiceListQuery = z.infer<typeof serviceListQuerySchema>;

export const serviceParamsSchema = z.object({ uuid: z.string().describe('Service uuid') });
