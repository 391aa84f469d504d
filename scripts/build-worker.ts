/**
 * Bundles what import workers and upload readers run (server/imports/workers/worker.ts and the
 * modules it loads) into one file and its lazily loaded chunks in dist/worker/, with a stamp of
 * the sources it was built from (server/imports/workers/worker-bundle.ts says when it is used).
 *   node scripts/build-worker.ts               build now
 *   node scripts/build-worker.ts --if-stale    build only when the sources changed since the last build
 *   ... --warn-only                            a failed build prints a warning and exits 0 (the workers then run the sources)
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { swapInBuild } from '../common/build-stamp.ts';
import { freshWorkerBundle, REPOSITORY_DIR, WORKER_BUNDLE_DIR, workerSourceFingerprint } from '../server/imports/workers/worker-bundle.ts';

const ENTRY = path.join(REPOSITORY_DIR, 'server', 'imports', 'workers', 'worker.ts');

/**
 * Every module keeps its own import.meta.url, the URL of its source file: the files the code finds
 * beside it (the gazetteer's data, package.json, the thread files it starts) stay where they are.
 */
const sourceUrls = {
  name: 'source-urls',
  transform(code: string, id: string) {
    // A virtual module (rolldown's runtime, id "\0…") has no source file: it keeps the chunk's URL.
    if (id.startsWith('\0') || !code.includes('import.meta.url')) return null;
    return { code: code.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id).href)), map: null };
  },
};

/**
 * Builds into a fresh folder and swaps it in, so a worker starting meanwhile never loads half a
 * build. The desktop build (scripts/build-desktop.ts) bundles its compiled worker.js instead.
 */
export async function buildWorkerBundle(options: { entry?: string; outDir?: string } = {}): Promise<void> {
  const { entry = ENTRY, outDir = WORKER_BUNDLE_DIR } = options;
  const fingerprint = workerSourceFingerprint();
  const { build } = await import('rolldown');
  await swapInBuild(outDir, fingerprint, async (staging) => {
    await build({
      input: { worker: entry },
      platform: 'node',
      // The native addon loads from node_modules as it is.
      external: [/^better-sqlite3$/, /^node:/],
      plugins: [sourceUrls],
      output: { dir: staging, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
      logLevel: 'warn',
    });
  });
}

async function main(args: string[]): Promise<number> {
  try {
    if (args.includes('--if-stale') && freshWorkerBundle() !== null) return 0;
    const started = performance.now();
    await buildWorkerBundle();
    process.stdout.write(`Import worker bundled (dist/worker/) in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`Could not bundle the import worker: ${error instanceof Error ? error.message : String(error)}\n`);
    if (!args.includes('--warn-only')) return 1;
    process.stderr.write('Import workers will run from the sources (they start slower; nothing else changes).\n');
    return 0;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
