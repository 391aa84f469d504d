/**
 * Builds the GUI (renderer/) into dist/renderer/, which the server serves at /.
 *   node renderer/scripts/build.ts               build now
 *   node renderer/scripts/build.ts --if-stale    build only when the sources changed since the last build
 *   ... --warn-only                              a failed build prints a warning and exits 0 (npm run serve: the API still starts)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStamp, filesFingerprint, listFiles, swapInBuild } from '../../common/build-stamp.ts';

const rootDir = fileURLToPath(new URL('../../', import.meta.url));
export const rendererDistDir = path.join(rootDir, 'dist', 'renderer');
const INPUTS = ['renderer/src', 'renderer/public', 'renderer/index.html', 'renderer/vite.config.ts', 'package-lock.json'];

/** Changes when any input file is added, removed, or touched. */
export function sourceFingerprint(): string {
  return filesFingerprint(
    rootDir,
    INPUTS.flatMap((input) => listFiles(path.join(rootDir, input))),
  );
}

export function isBuildFresh(): boolean {
  try {
    return buildStamp(rendererDistDir) === sourceFingerprint() && fs.existsSync(path.join(rendererDistDir, 'index.html'));
  } catch {
    return false;
  }
}

/** Builds into a fresh folder and swaps it in, so a running server never serves half a build. */
export async function buildRenderer(): Promise<void> {
  const fingerprint = sourceFingerprint();
  const { build } = await import('vite');
  const { default: config } = await import('../vite.config.ts');
  await swapInBuild(rendererDistDir, fingerprint, async (staging) => {
    await build({ ...config, configFile: false, build: { ...config.build, outDir: staging } });
  });
}

export async function ensureRendererBuild(options: { quiet?: boolean } = {}): Promise<void> {
  if (isBuildFresh()) return;
  const started = performance.now();
  if (!options.quiet) process.stdout.write('Building the GUI (renderer/ -> dist/renderer/)...\n');
  await buildRenderer();
  if (!options.quiet) process.stdout.write(`GUI built in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
}

async function main(args: string[]): Promise<number> {
  const warnOnly = args.includes('--warn-only');
  try {
    if (args.includes('--if-stale')) await ensureRendererBuild();
    else {
      process.stdout.write('Building the GUI (renderer/ -> dist/renderer/)...\n');
      await buildRenderer();
      process.stdout.write('GUI built.\n');
    }
    return 0;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`Could not build the GUI: ${reason}\n`);
    if (!warnOnly) return 1;
    const previous = fs.existsSync(path.join(rendererDistDir, 'index.html'));
    process.stderr.write(
      previous
        ? 'Serving the previous build of the GUI; run npm run build:renderer after fixing the error.\n'
        : 'Starting without it; the API works, and / explains how to build the GUI (npm ci, then npm run build:renderer).\n',
    );
    return 0;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
