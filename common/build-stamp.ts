import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Builds made from sources and used only while they match them (the GUI's dist/renderer/, the
 * import worker's dist/worker/): a build folder holds a stamp of the sources it was made from.
 */
const STAMP_FILE = '.build-stamp';

/** Every file at or below `entry` whose name `keep` accepts, sorted by path; none when it is missing. */
export function listFiles(entry: string, keep: (name: string) => boolean = () => true): string[] {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return keep(path.basename(entry)) ? [entry] : [];
  return fs
    .readdirSync(entry)
    .sort()
    .flatMap((name) => listFiles(path.join(entry, name), keep));
}

/** Changes when one of the files is added, removed or touched: their paths from `rootDir`, sizes and times. */
export function filesFingerprint(rootDir: string, files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    const stat = fs.statSync(file);
    hash.update(`${path.relative(rootDir, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/** The fingerprint the build in `dir` was stamped with, or null when there is none. */
export function buildStamp(dir: string): string | null {
  try {
    return fs.readFileSync(path.join(dir, STAMP_FILE), 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * Builds into a fresh folder beside `outDir`, stamps it with `fingerprint` and swaps it in, so
 * that whoever reads `outDir` meanwhile (a server serving the GUI, a worker starting) never meets
 * half a build.
 */
export async function swapInBuild(outDir: string, fingerprint: string, build: (staging: string) => Promise<void>): Promise<void> {
  const staging = `${outDir}.building-${process.pid}`;
  const previous = `${outDir}.previous-${process.pid}`;
  try {
    await build(staging);
    fs.writeFileSync(path.join(staging, STAMP_FILE), `${fingerprint}\n`);
    if (fs.existsSync(outDir)) fs.renameSync(outDir, previous);
    fs.renameSync(staging, outDir);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(previous, { recursive: true, force: true });
  }
}
