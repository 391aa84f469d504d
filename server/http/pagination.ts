import { z } from 'zod';

export const MAX_PER_PAGE = 100;

/** page and per_page of every list: page from 1, per_page 1 to 100, defaults 1 and 10 (docs/api.md). */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1).describe('Page number, from 1. Default 1.'),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(10).describe(`Items per page, 1 to ${MAX_PER_PAGE}. Default 10.`),
});

/** The query of a list of an organization's `items` (e.g. 'services'): page, per_page and the organization; `.extend` it with filters. */
export function organizationListQuery(items: string) {
  return pageQuerySchema.extend({
    organization_uuid: z.string().min(1).describe(`Organization whose ${items} to list. Required.`),
  });
}

/** The page shape of docs/api.md around any item schema. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    pages: z.number().int(),
    page: z.number().int(),
    per_page: z.number().int(),
  });
}

export interface Page<T> {
  items: T[];
  total: number;
  pages: number;
  page: number;
  per_page: number;
}

/** The page `query` asked for (page, per_page): its items, of `total` in all. */
export function toPage<T>({ items, total }: { items: T[]; total: number }, query: { page: number; per_page: number }): Page<T> {
  return { items, total, pages: Math.ceil(total / query.per_page), page: query.page, per_page: query.per_page };
}
