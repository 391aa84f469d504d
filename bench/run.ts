import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs every bench/*.bench.ts in its own process (one after the other: the machine is small),
 * prints each one's JSON, then a summary. Exit status 1 when a target was missed.
 * Run one: npm run bench -- qr-xlsx
 */
const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv[2];
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
// Servers started by the benchmarks run their import workers as `npm run serve` does: from the bundle.
const bundled = spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/build-worker.ts', import.meta.url)), '--if-stale'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (bundled.status !== 0) process.exit(1);
const summary: Record<string, Record<string, boolean>> = {};
let failed = false;
for (const file of files) {
  process.stderr.write(`running ${file}...\n`);
  const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(dir, file)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(run.stdout);
  if (run.status !== 0) {
    failed = true;
    summary[file] = { ran: false };
    continue;
  }
  const report = JSON.parse(run.stdout) as { targets: Record<string, { pass: boolean }> };
  summary[file] = Object.fromEntries(Object.entries(report.targets).map(([name, t]) => [name, t.pass]));
  if (Object.values(report.targets).some((t) => !t.pass)) failed = true;
}
console.log(JSON.stringify({ summary }, null, 2));
process.exitCode = failed ? 1 : 0;
