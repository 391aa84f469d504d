import { z } from 'zod';
import { deletedCountsSchema } from '../demo/schemas.ts';

/** A letter or digit, then letters, digits, dot, dash, underscore; at most 64. */
export const SNAPSHOT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const snapshotNameSchema = z
  .string()
  .regex(SNAPSHOT_NAME_PATTERN, {
    message: 'A snapshot name is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit, e.g. before-ci.',
  })
  .describe('1 to 64 letters, digits, . - _, starting with a letter or digit, e.g. before-ci');

export const snapshotInfoSchema = z
  .object({
    name: z.string(),
    size_bytes: z.number().int().describe('Size of the snapshot file'),
    created_on: z.string().describe('ISO 8601 UTC: when it was saved'),
  })
  .meta({ id: 'Snapshot' });
export type SnapshotInfo = z.infer<typeof snapshotInfoSchema>;

export const snapshotListSchema = z.object({ items: z.array(snapshotInfoSchema) }).meta({ id: 'SnapshotList' });

export const saveSnapshotBodySchema = z.strictObject({
  name: snapshotNameSchema,
  replace: z.boolean().default(false).describe('true: replace a snapshot of that name; otherwise it is a 409'),
});

export const snapshotParamsSchema = z.object({ name: snapshotNameSchema });

const countsSchema = z
  .record(z.string(), z.number().int())
  .describe("Rows per table; webhooks counts the live ones (a deleted webhook is kept only for its deliveries' history)");

export const savedSnapshotSchema = snapshotInfoSchema
  .extend({ counts: countsSchema.describe('Rows saved, per table') })
  .meta({ id: 'SavedSnapshot' });
export type SavedSnapshot = z.infer<typeof savedSnapshotSchema>;

export const restoredSnapshotSchema = z
  .object({
    name: z.string(),
    created_on: z.string().describe('When the snapshot was saved'),
    deleted: deletedCountsSchema.describe('What the organization had before the restore, deleted'),
    restored: countsSchema.describe('Rows brought back, per table'),
  })
  .meta({ id: 'RestoredSnapshot' });
export type RestoredSnapshot = z.infer<typeof restoredSnapshotSchema>;

export const resetBodySchema = z.strictObject({
  empty: z.literal(true).describe('Required, to say it: the organization is emptied (nothing is seeded)'),
});

export const resetResultSchema = z.object({ deleted: deletedCountsSchema }).meta({ id: 'ResetResult' });
export type ResetResult = z.infer<typeof resetResultSchema>;
