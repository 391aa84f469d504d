import fs from 'node:fs';
import path from 'node:path';
import { writeAppointmentBenchCsv } from './appointment-data.ts';
import { benchDataTag, writeQrBenchCsv } from './qr-data.ts';
import { benchGeocoderName, importAndPoll, OUT, round, startChildServer, target, type ChildServer, trackLoadAverage } from './support.ts';

/**
 * Issue 10: a dry run of 1,000,000 rows is as fast as a real import or faster. For a QR code CSV
 * and an appointment CSV: the dry run (POST with dry_run=true to its 200 answer) against the real
 * background import of the same file in the same run, each on a fresh server.
 */
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
fs.mkdirSync(OUT, { recursive: true });
const loadAverage = trackLoadAverage();

const kinds = [
  {
    name: 'qrcodes',
    endpoint: '/api/qrcodes/bulk',
    file: path.join(OUT, `qr-${rows}-${benchDataTag()}.csv`),
    write: (file: string) => writeQrBenchCsv(file, rows),
    written: (results: Record<string, unknown>) => results.inserted,
  },
  {
    name: 'appointments',
    endpoint: '/api/appointment_schedule/bulk',
    file: path.join(OUT, `appointments-${rows}.csv`),
    write: (file: string) => writeAppointmentBenchCsv(file, rows),
    written: (results: Record<string, unknown>) => results.upserted,
  },
] as const;

async function onFreshServer<T>(run: (server: ChildServer) => Promise<T>): Promise<{ value: T; peakRssMb: number }> {
  const server = await startChildServer();
  try {
    const value = await run(server);
    return { value, peakRssMb: server.peakRssMb() };
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

async function dryRun(server: ChildServer, endpoint: string, file: string): Promise<{ seconds: number; answer: Record<string, unknown> }> {
  const started = performance.now();
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('dry_run', 'true');
  form.set('file', await fs.openAsBlob(file), path.basename(file));
  const res = await fetch(`${server.url}${endpoint}`, { method: 'POST', headers: { authorization: server.auth }, body: form });
  const answer = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`dry run failed: ${res.status} ${JSON.stringify(answer).slice(0, 500)}`);
  return { seconds: (performance.now() - started) / 1000, answer };
}

const report: Record<string, unknown> = { bench: 'dry-run-1m', rows, geocoder: benchGeocoderName() };
const targets: Record<string, ReturnType<typeof target>> = {};
for (const kind of kinds) {
  if (!fs.existsSync(kind.file)) kind.write(kind.file);
  const dry = await onFreshServer((server) => dryRun(server, kind.endpoint, kind.file));
  const real = await onFreshServer((server) => importAndPoll(server, kind.file, path.basename(kind.file), kind.endpoint));
  const realResults = (real.value.task.results ?? {}) as Record<string, unknown>;
  report[kind.name] = {
    seconds: { dry_run: round(dry.value.seconds), real_import: round(real.value.seconds) },
    dry_run: { written: kind.written(dry.value.answer), excluded: dry.value.answer.excluded, peak_rss_mb: dry.peakRssMb },
    real_import: {
      status: real.value.task.status,
      written: kind.written(realResults),
      excluded: realResults.excluded,
      peak_rss_mb: real.peakRssMb,
    },
  };
  targets[`${kind.name}_dry_run_vs_real_import`] = target(dry.value.seconds / real.value.seconds, 1);
  const same = kind.written(dry.value.answer) === kind.written(realResults) && dry.value.answer.excluded === realResults.excluded;
  targets[`${kind.name}_same_counts`] = target(same ? 0 : 1, 0);
  targets[`${kind.name}_peak_rss_mb`] = target(dry.peakRssMb, 300);
}
report.load_average_1m = loadAverage();
report.targets = targets;
console.log(JSON.stringify(report, null, 2));
