import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { LiveBus } from '../live/bus.ts';
import type { ServerConfig } from '../server-config.ts';
import type { OutboxSignal } from '../webhooks/outbox-signal.ts';
import { deleteOrganizationRows, refuseWhileImporting as refuseWhileImportingFor } from '../demo/reset-store.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { nowIso } from '../time.ts';
import { listSnapshotFiles, moveIntoPlace, removeFile, snapshotFile, tempSnapshotFile } from './files.ts';
import type { ResetResult, RestoredSnapshot, SavedSnapshot, SnapshotInfo } from './schemas.ts';
import {
  attachSnapshot,
  detachSnapshot,
  foreignRows,
  isReadable,
  readSnapshotMeta,
  restoreSnapshotRows,
  organizationUploadFiles,
  writeSnapshot,
} from './store.ts';
import { deleteOrganizationSettings } from './settings-store.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * What snapshots take of the server: the database, the data folder (serve's options), the logger,
 * and the live bus and webhook wake-up told when an organization's data is replaced. The routes
 * pass the server's context object, which also keys the one-at-a-time queue below.
 */
interface SnapshotDeps {
  db: Db;
  config: ServerConfig;
  logger: Logger;
  live: LiveBus;
  outbox: OutboxSignal;
}

/** One snapshot operation at a time on a server: they share the attached schema's name. */
const queues = new WeakMap<SnapshotDeps, Promise<unknown>>();

function oneAtATime<T>(ctx: SnapshotDeps, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(ctx) ?? Promise.resolve();
  const next = previous.then(work, work);
  queues.set(
    ctx,
    next.catch(() => {}),
  );
  return next;
}

/** 409 (nothing changes) while an import of the organization runs (demo/reset-store.ts). */
const refuseWhileImporting = (db: Kysely<Database> | Transaction<Database>, organizationUuid: string, doing: string) =>
  refuseWhileImportingFor(db, organizationUuid, doing, (task) => `Try again once it has finished (qr-sandbox tasks watch ${task}).`);

const unreadable = (name: string) =>
  new ApiError(
    'CONFLICT',
    `The file of snapshot "${name}" is not a snapshot of this organization this version can read. Delete it and save a new one.`,
  );

/** 400: the file's rows name another organization (an edited file); nothing is restored. */
const notThisOrganization = (name: string, foreign: { table: string; rows: number }[]) =>
  new ApiError(
    'VALIDATION_ERROR',
    `Snapshot "${name}" holds rows of another organization (${foreign.map((f) => `${f.rows} in ${f.table}`).join(', ')}): ` +
      'a snapshot restores only into the organization it was saved from. Nothing was changed; delete the file and save a new one.',
    foreign.map((f) => ({ path: f.table, message: `${f.rows} rows not of this organization` })),
  );

/** Runs `work` with the file attached; a file SQLite cannot open is `unreadable`. */
async function withAttached<T>(ctx: SnapshotDeps, file: string, work: () => Promise<T>, unreadableAs?: ApiError): Promise<T> {
  const db = ctx.db.kysely;
  try {
    await attachSnapshot(db, file);
  } catch (error) {
    if (unreadableAs) throw unreadableAs;
    throw error;
  }
  try {
    return await work();
  } finally {
    await detachSnapshot(db);
  }
}

function announce(ctx: SnapshotDeps, organizationUuid: string, data: { action: 'restore' | 'reset'; name?: string }): void {
  ctx.outbox.wake();
  ctx.live.publish({ type: 'organization.replaced', organization_uuid: organizationUuid, data });
}

/**
 * Saves all of the organization's data (its QR codes, tags, appointments, services, import
 * handlers, import tasks, webhooks with their events and deliveries, confirmations, inboxes with
 * their messages, settings) to DATA_DIR/snapshots/ORG/NAME.sqlite, read in one transaction.
 * 409 while one of its imports runs, or when the name is taken and `replace` is not set.
 */
export function saveSnapshot(ctx: SnapshotDeps, organizationUuid: string, name: string, replace: boolean): Promise<SavedSnapshot> {
  return oneAtATime(ctx, async () => {
    const dataDir = ctx.config.dataDir;
    const file = snapshotFile(dataDir, organizationUuid, name);
    if (!replace && fs.existsSync(file)) {
      throw new ApiError(
        'CONFLICT',
        `A snapshot named "${name}" exists. Choose another name, delete it first, or replace it (--force, "replace": true).`,
      );
    }
    const temp = tempSnapshotFile(dataDir, organizationUuid, name);
    try {
      await refuseWhileImporting(ctx.db.kysely, organizationUuid, 'saved');
      const meta = await withAttached(ctx, temp, () =>
        ctx.db.kysely.transaction().execute(async (trx) => {
          await refuseWhileImporting(trx, organizationUuid, 'saved');
          return writeSnapshot(trx, organizationUuid, nowIso());
        }),
      );
      moveIntoPlace(temp, file);
      const size = fs.statSync(file).size;
      ctx.logger.info({ organization_uuid: organizationUuid, snapshot: name, counts: meta.counts }, 'snapshot saved');
      return { name, size_bytes: size, created_on: meta.created_on, counts: meta.counts };
    } finally {
      removeFile(temp);
    }
  });
}

/**
 * Replaces all of the organization's data by the snapshot's, in one transaction: everything it has
 * now is deleted (as the demo reset deletes it), then the snapshot's rows are inserted and its QR
 * codes indexed for search. Its API keys stay. 409 while one of its imports runs (nothing changes);
 * 404 for an unknown name.
 */
export function restoreSnapshot(ctx: SnapshotDeps, organizationUuid: string, name: string): Promise<RestoredSnapshot> {
  return oneAtATime(ctx, async () => {
    const dataDir = ctx.config.dataDir;
    const file = snapshotFile(dataDir, organizationUuid, name);
    if (!fs.existsSync(file)) throw notFound(`Snapshot "${name}" (list them with: qr-sandbox snapshot list, or GET /api/snapshots)`);
    await refuseWhileImporting(ctx.db.kysely, organizationUuid, 'restored');
    const { result, uploadFiles, keptFiles } = await withAttached(
      ctx,
      file,
      async () => {
        const meta = await readSnapshotMeta(ctx.db.kysely);
        if (!meta || meta.organization_uuid !== organizationUuid || !isReadable(meta)) throw unreadable(name);
        const foreign = await foreignRows(ctx.db.kysely, organizationUuid);
        if (foreign.length > 0) throw notThisOrganization(name, foreign);
        return ctx.db.kysely.transaction().execute(async (trx) => {
          await refuseWhileImporting(trx, organizationUuid, 'restored');
          const { counts, uploadFiles } = await deleteOrganizationRows(trx, organizationUuid);
          await deleteOrganizationSettings(trx, organizationUuid);
          await restoreSnapshotRows(trx);
          const kept = await organizationUploadFiles(trx, organizationUuid);
          return {
            result: { name, created_on: meta.created_on, deleted: counts, restored: meta.counts },
            uploadFiles,
            keptFiles: kept,
          };
        });
      },
      unreadable(name),
    );
    const keep = new Set(keptFiles);
    for (const upload of uploadFiles) if (!keep.has(upload)) fs.rmSync(path.join(dataDir, upload), { force: true });
    ctx.logger.info({ organization_uuid: organizationUuid, snapshot: name }, 'snapshot restored');
    announce(ctx, organizationUuid, { action: 'restore', name });
    return result;
  });
}

export function listSnapshots(ctx: SnapshotDeps, organizationUuid: string): SnapshotInfo[] {
  return listSnapshotFiles(ctx.config.dataDir, organizationUuid);
}

export function deleteSnapshot(ctx: SnapshotDeps, organizationUuid: string, name: string): Promise<void> {
  return oneAtATime(ctx, async () => {
    const file = snapshotFile(ctx.config.dataDir, organizationUuid, name);
    if (!fs.existsSync(file)) throw notFound(`Snapshot "${name}" (list them with: qr-sandbox snapshot list, or GET /api/snapshots)`);
    removeFile(file);
  });
}

/**
 * Empties the organization: everything the demo reset deletes, in one transaction, and nothing
 * seeded after. Its API keys and settings stay. 409 while one of its imports runs.
 */
export function resetOrganization(ctx: SnapshotDeps, organizationUuid: string): Promise<ResetResult> {
  return oneAtATime(ctx, async () => {
    await refuseWhileImporting(ctx.db.kysely, organizationUuid, 'deleted');
    const { counts, uploadFiles } = await ctx.db.kysely.transaction().execute(async (trx) => {
      await refuseWhileImporting(trx, organizationUuid, 'deleted');
      return deleteOrganizationRows(trx, organizationUuid);
    });
    for (const upload of uploadFiles) fs.rmSync(path.join(ctx.config.dataDir, upload), { force: true });
    ctx.logger.info({ organization_uuid: organizationUuid, deleted: counts }, 'organization data reset');
    announce(ctx, organizationUuid, { action: 'reset' });
    return { deleted: counts };
  });
}
