import { z } from 'zod';

export const MAX_PER_PAGE = 100;

/** page and per_page of every list: page from 1, per_page 1 to 100, defaults 1 and 10 (docs/api.md). */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1).describe('Page number, from 1. Default 1.'),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(10).describe(`Items per page, 1 to ${MAX_PER_PAGE}. Default 10.`),
});

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

export function toPage<T>(items: T[], total: number, page: number, perPage: number): Page<T> {
  return { items, total, pages: Math.ceil(total / perPage), page, per_page: perPage };
}
