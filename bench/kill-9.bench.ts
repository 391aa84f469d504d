import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * The kill -9 attack of test/hardening/kill-9.test.ts at length: npm test kills the server 8 times,
 * this 60 (`KILL9_RUNS` overrides it; the seed is printed, `KILL9_SEED` repeats it). Each restart
 * must find the import with every row once, no task PROCESSING, every accepted event delivered and
 * an intact database.
 */
const RUNS = Number(process.env.KILL9_RUNS ?? 60);
const file = fileURLToPath(new URL('../test/hardening/kill-9.test.ts', import.meta.url));
const started = performance.now();
const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], {
  encoding: 'utf8',
  env: { ...process.env, KILL9_RUNS: String(RUNS) },
  maxBuffer: 64 * 1024 * 1024,
});
const seed = /seed (\d+)/.exec(run.stdout)?.[1] ?? null;
const failed = Number(/^# fail (\d+)/m.exec(run.stdout)?.[1] ?? 1);
if (failed > 0 || run.status !== 0) process.stderr.write(run.stdout.slice(-4000) + run.stderr.slice(-2000));
console.log(
  JSON.stringify(
    {
      bench: 'kill-9',
      runs: RUNS,
      seed: seed === null ? null : Number(seed),
      seconds: Math.round((performance.now() - started) / 100) / 10,
      load_average_1m: os.loadavg()[0],
      targets: { every_restart_consistent: { limit: 0, value: failed, pass: failed === 0 && run.status === 0 } },
    },
    null,
    2,
  ),
);
