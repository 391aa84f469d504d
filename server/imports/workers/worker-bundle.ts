import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStamp, filesFingerprint, listFiles } from '../../../common/build-stamp.ts';

/**
 * Import workers and upload readers can run from one bundled file (dist/worker/, built by
 * scripts/build-worker.ts, which `npm run serve` and `npm run bench` run first) instead of the
 * TypeScript sources: a process then loads its code in about 55 ms instead of 300 (some 400 modules,
 * kysely's 255 among them, each resolved, read and type-stripped), at every start after
 * --worker-idle-seconds. The bundle is used only while it matches the sources (its stamp); otherwise
 * the processes run the sources, as tests do.
 */
export const REPOSITORY_DIR = fileURLToPath(new URL('../../../', import.meta.url));
export const WORKER_BUNDLE_DIR = path.join(REPOSITORY_DIR, 'dist', 'worker');
export const WORKER_BUNDLE_ENTRY = 'worker.mjs';
/** QR_SANDBOX_WORKER_BUNDLE=0: run the sources even when the bundle is fresh (coverage runs: the bundle's lines are not the sources'). */
const BUNDLE_SETTING = 'QR_SANDBOX_WORKER_BUNDLE';

const SOURCE = /\.(c|m)?ts$/;

/** The folders of the code a worker runs (server/ imports common/). */
const SOURCE_DIRS = ['server', 'common'];

/** Changes when a source file under server/ or common/, or the installed packages (package-lock.json), change: names, sizes and times. */
export function workerSourceFingerprint(rootDir = REPOSITORY_DIR): string {
  const files = [
    ...SOURCE_DIRS.flatMap((dir) => listFiles(path.join(rootDir, dir), (name) => SOURCE.test(name))),
    ...listFiles(path.join(rootDir, 'package-lock.json')),
  ];
  return filesFingerprint(rootDir, files);
}

/** The bundle's entry when it was built from the sources as they are now (and not turned off), else null. */
export function freshWorkerBundle(options: { rootDir?: string; bundleDir?: string } = {}): string | null {
  if (process.env[BUNDLE_SETTING] === '0') return null;
  const bundleDir = options.bundleDir ?? WORKER_BUNDLE_DIR;
  const entry = path.join(bundleDir, WORKER_BUNDLE_ENTRY);
  try {
    return buildStamp(bundleDir) === workerSourceFingerprint(options.rootDir) && fs.existsSync(entry) ? entry : null;
  } catch {
    return null;
  }
}

/** The bundle's entry when there is one, unchecked: in the desktop build (dist/app/), which is built as a whole. */
export function builtWorkerBundle(): string | undefined {
  const entry = path.join(WORKER_BUNDLE_DIR, WORKER_BUNDLE_ENTRY);
  return fs.existsSync(entry) ? entry : undefined;
}
