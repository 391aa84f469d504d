/**
 * Builds what the desktop app runs into dist/app/, a copy of the repository's layout that
 * Electron's Node can load without TypeScript:
 *   main/, preload/, server/   compiled by tsc (tsconfig.desktop.json; .ts -> .js, .cts -> .cjs,
 *                              relative imports rewritten to .js)
 *   server/** other files      copied as they are (data files the server reads next to its code)
 *   dist/worker/               the compiled import worker bundled into one file (scripts/build-worker.ts),
 *                              which import workers and upload readers run (main/main.ts)
 *   package.json               name, version, "type": "module" (server/version.ts reads ../package.json)
 *                              and "main", so `electron dist/app` runs it too
 *   dist/renderer/             the built GUI (npm run build:renderer), which server/http/gui.ts finds
 *                              at ../../dist/renderer/ from its own file, as in the source tree
 * Every path the server resolves from import.meta.url therefore resolves the same in dist/app/.
 *
 *   node scripts/build-desktop.ts
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWorkerBundle } from './build-worker.ts';

export const rootDir = fileURLToPath(new URL('../', import.meta.url));
export const appDir = path.join(rootDir, 'dist', 'app');
const rendererBuildScript = path.join(rootDir, 'renderer', 'scripts', 'build.ts');
const rendererDist = path.join(rootDir, 'dist', 'renderer');

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: rootDir, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

/** Copies every file under `from` that tsc does not compile, keeping the folder layout. */
function copyAssets(from: string, to: string): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyAssets(source, target);
    else if (entry.isFile() && !/\.(c|m)?ts$/.test(entry.name)) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(source, target);
    }
  }
}

export interface BuildOptions {
  /** Default dist/app/ (what package.json's "main" and electron-builder.yml use); tests may build elsewhere inside the repository. */
  outDir?: string;
  log?: (line: string) => void;
}

export async function buildDesktop(options: BuildOptions = {}): Promise<void> {
  const outDir = options.outDir ?? appDir;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (fs.existsSync(rendererBuildScript)) run(process.execPath, [rendererBuildScript, '--if-stale']);
  fs.rmSync(outDir, { recursive: true, force: true });
  const tsc = path.join(rootDir, 'node_modules', 'typescript', 'bin', 'tsc');
  run(process.execPath, [tsc, '-p', path.join(rootDir, 'tsconfig.desktop.json'), '--outDir', outDir]);
  copyAssets(path.join(rootDir, 'server'), path.join(outDir, 'server'));
  // Import workers start from one file (server/imports/workers/worker-bundle.ts), bundled from the compiled code.
  await buildWorkerBundle({
    entry: path.join(outDir, 'server', 'imports', 'workers', 'worker.js'),
    outDir: path.join(outDir, 'dist', 'worker'),
  });
  const pkg = JSON.parse(fs.readFileSync(path.join(rootDir, 'package.json'), 'utf8')) as { name: string; version: string };
  fs.writeFileSync(
    path.join(outDir, 'package.json'),
    `${JSON.stringify({ name: `${pkg.name}-app`, version: pkg.version, private: true, type: 'module', main: 'main/main.js' }, null, 2)}\n`,
  );
  if (fs.existsSync(path.join(rendererDist, 'index.html'))) {
    fs.cpSync(rendererDist, path.join(outDir, 'dist', 'renderer'), { recursive: true });
  } else {
    log('Note: the GUI is not built (no dist/renderer/index.html); the window will show the server\'s "GUI not built" page.');
  }
  log(`Desktop app built into ${path.relative(rootDir, outDir)}/`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await buildDesktop();
  } catch (error) {
    process.stderr.write(`Desktop build failed: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
}
