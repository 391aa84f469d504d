import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { ServerConfig } from '../server-config.ts';
import { ApiError } from '../http/errors.ts';
import type { ServiceClient } from '../remote/service-client.ts';
import { deleteOrganizationRows, refuseWhileImporting } from './reset-store.ts';
import type { DemoResetEvent, DemoResetResult } from './schemas.ts';
import { DEMO_SEED_STEPS, seedDemo } from './seed.ts';

/** What a demo reset takes of the server; the route passes the server's context object, which keys `resetting`. */
interface DemoResetDeps {
  db: Db;
  config: ServerConfig;
  logger: Logger;
}

const resetting = new WeakMap<DemoResetDeps, Set<string>>();

/**
 * Returns an organization to a freshly seeded demo state: deletes everything it made in one
 * transaction (not while one of its imports runs: 409, nothing deleted), removes the uploads of
 * its imports, then seeds it again through the API with `client`, acting as the caller.
 */
export async function resetDemoData(
  ctx: DemoResetDeps,
  organizationUuid: string,
  client: ServiceClient,
  onStep: (event: DemoResetEvent) => void = () => {},
): Promise<DemoResetResult> {
  let running = resetting.get(ctx);
  if (!running) {
    running = new Set();
    resetting.set(ctx, running);
  }
  if (running.has(organizationUuid))
    throw new ApiError('CONFLICT', 'A reset of this organization is already running. Wait for it to finish.');
  running.add(organizationUuid);
  try {
    const totalSteps = 1 + DEMO_SEED_STEPS;
    onStep({ step: 1, of: totalSteps, label: "Deleting the organization's data" });
    const then = () => 'Reset the demo data once it has finished.';
    await refuseWhileImporting(ctx.db.kysely, organizationUuid, 'deleted', then);
    const { counts, uploadFiles } = await ctx.db.kysely.transaction().execute(async (trx) => {
      await refuseWhileImporting(trx, organizationUuid, 'deleted', then);
      return deleteOrganizationRows(trx, organizationUuid);
    });
    for (const file of uploadFiles) fs.rmSync(path.join(ctx.config.dataDir, file), { force: true });
    ctx.logger.info({ organization_uuid: organizationUuid, deleted: counts }, 'demo reset: organization data deleted');
    let seeded;
    try {
      seeded = await seedDemo(client, organizationUuid, { onStep, stepOffset: 1, totalSteps });
    } catch (error) {
      ctx.logger.error({ err: error, organization_uuid: organizationUuid }, 'demo reset: seeding failed');
      const reason = error instanceof Error ? error.message : String(error);
      throw new ApiError(
        'INTERNAL',
        `The organization's data was deleted, but the demo data could not be added: ${reason} Try the reset again.`,
      );
    }
    onStep({ step: totalSteps, of: totalSteps, label: 'Done', done: true });
    return { deleted: counts, seeded };
  } finally {
    running.delete(organizationUuid);
  }
}
