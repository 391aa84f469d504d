import { z } from 'zod';

/** GET /api/health: the server is up; the GUI shows a banner while disk_full is true. */
export const healthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  disk_full: z.boolean().describe('The drive that holds the data folder is full: writes answer 507 until space is freed; reads still work'),
});
