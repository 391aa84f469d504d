import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
export const WORKER_BUNDLE_STAMP = '.build-stamp';
/** QR_SANDBOX_WORKER_BUNDLE=0: run the sources even when the bundle is fresh (coverage runs: the bundle's lines are not the sources'). */
const BUNDLE_SETTING = 'QR_SANDBOX_WORKER_BUNDLE';

const SOURCE = /\.(c|m)?ts$/;

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const at = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(at);
      return entry.isFile() && SOURCE.test(entry.name) ? [at] : [];
    });
}

/** Changes when a source file under server/ or the installed packages (package-lock.json) change: names, sizes and times. */
export function workerSourceFingerprint(rootDir = REPOSITORY_DIR): string {
  const hash = createHash('sha256');
  for (const file of [...sourceFiles(path.join(rootDir, 'server')), path.join(rootDir, 'package-lock.json')]) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    hash.update(`${path.relative(rootDir, file)}\0${stat?.size ?? -1}\0${stat?.mtimeMs ?? -1}\n`);
  }
  return hash.digest('hex');
}

/** The bundle's entry when it was built from the sources as they are now (and not turned off), else null. */
export function freshWorkerBundle(options: { rootDir?: string; bundleDir?: string } = {}): string | null {
  if (process.env[BUNDLE_SETTING] === '0') return null;
  const bundleDir = options.bundleDir ?? WORKER_BUNDLE_DIR;
  const entry = path.join(bundleDir, WORKER_BUNDLE_ENTRY);
  try {
    const stamp = fs.readFileSync(path.join(bundleDir, WORKER_BUNDLE_STAMP), 'utf8').trim();
    return stamp === workerSourceFingerprint(options.rootDir) && fs.existsSync(entry) ? entry : null;
  } catch {
    return null;
  }
}

/** The bundle's entry when there is one, unchecked: in the desktop build (dist/app/), which is built as a whole. */
export function builtWorkerBundle(): string | undefined {
  const entry = path.join(WORKER_BUNDLE_DIR, WORKER_BUNDLE_ENTRY);
  return fs.existsSync(entry) ? entry : undefined;
}
