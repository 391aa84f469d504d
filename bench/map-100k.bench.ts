/**
 * The map at 100,000 QR codes in Chromium (test/e2e/qrcode-map-100k.test.ts at full size; npm test
 * runs it at 20,000): how long the points take to answer and to draw. Target: drawn in under a second.
 * Run: npm run bench -- map-100k
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const POINTS = 100_000;
const test = fileURLToPath(new URL('../test/e2e/qrcode-map-100k.test.ts', import.meta.url));
const run = spawnSync(process.execPath, ['--test', '--test-reporter=spec', test], {
  encoding: 'utf8',
  env: { ...process.env, QR_SANDBOX_MAP_POINTS: String(POINTS) },
});
const line = /points answered in (\d+) ms \(([\d.]+) MB\), projected and drawn \(outlines included\) in ([\d.]+) ms/.exec(run.stdout);
if (run.status !== 0 || !line) {
  process.stderr.write(`${run.stdout}\n${run.stderr}\nthe map test did not pass (exit ${run.status})\n`);
  process.exit(1);
}
const [, answerMs, megabytes, drawMs] = line.map(Number) as [number, number, number, number];
console.log(
  JSON.stringify(
    {
      bench: 'map-100k',
      points: POINTS,
      points_answer_ms: answerMs,
      points_answer_mb: megabytes,
      draw_ms: drawMs,
      targets: { drawn_under_1_s: { value_ms: drawMs, limit_ms: 1000, pass: drawMs < 1000 } },
    },
    null,
    2,
  ),
);
