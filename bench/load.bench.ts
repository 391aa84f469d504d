/**
 * Load: 100 concurrent clients poll a task while a 1,000,000-row import runs and 1,000 events
 * are delivered to a local receiver. Targets: no errors, p99 of the polls under 100 ms.
 * LOAD_ROWS, LOAD_EVENTS and LOAD_CLIENTS shrink it for a quick look.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { OUT, percentile, round, startChildServer, target } from './support.ts';
import { writeQrBenchCsv } from './qr-data.ts';

const ROWS = Number(process.env.LOAD_ROWS ?? 1_000_000);
const EVENTS = Number(process.env.LOAD_EVENTS ?? 1_000);
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 100);

fs.mkdirSync(OUT, { recursive: true });
const csv = path.join(OUT, `load-${ROWS}.csv`);
if (!fs.existsSync(csv)) writeQrBenchCsv(csv, ROWS);

const deliveryIds = new Set<string>();
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    deliveryIds.add(String(req.headers['x-service-delivery-id']));
    res.end('ok');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const dataDir = fs.mkdtempSync(path.join(OUT, 'load-data-'));
const server = await startChildServer(dataDir, ['--retry-schedule', 'fast']);
const org = server.organizationUuid;
const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const errors: string[] = [];
try {
  const hook = await server.request('/api/webhooks/register', json({ organization_uuid: org, url: receiverUrl, events: ['service_confirmation.check_in'] }));
  if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${await hook.text()}`);

  const started = performance.now();
  const form = new FormData();
  form.set('organization_uuid', org);
  form.set('file', await fs.openAsBlob(csv), 'load.csv');
  const accepted = await server.request('/api/qrcodes/bulk', { method: 'POST', body: form });
  const { background_task_uuid: taskUuid } = (await accepted.json()) as { background_task_uuid: string };
  if (accepted.status !== 202) throw new Error(`import not accepted: ${accepted.status}`);

  let importDone = false;
  let importSeconds = NaN;
  let taskStatus = '';
  const pollMs: number[] = [];
  const client = async () => {
    while (!importDone) {
      const t0 = performance.now();
      try {
        const res = await server.request(`/api/background-tasks/uuid/${taskUuid}`);
        const task = (await res.json()) as { status: string };
        pollMs.push(performance.now() - t0);
        if (res.status !== 200) errors.push(`poll ${res.status}`);
        if (task.status === 'COMPLETED' || task.status === 'FAILED') {
          if (!importDone) importSeconds = (performance.now() - started) / 1000;
          importDone = true;
          taskStatus = task.status;
        }
      } catch (error) {
        errors.push(`poll: ${String(error)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const eventsStarted = performance.now();
  let expected = 0;
  const sendEvents = async () => {
    for (let i = 0; i < EVENTS; i += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, EVENTS - i) }, async () => {
          const res = await server.request('/api/service-confirmations/simulate', json({ organization_uuid: org, event: 'service_confirmation.check_in' }));
          if (res.status !== 201) errors.push(`simulate ${res.status}: ${(await res.text()).slice(0, 200)}`);
          else expected += ((await res.json()) as { deliveries: unknown[] }).deliveries.length;
        }),
      );
    }
    while (deliveryIds.size < expected) await new Promise((r) => setTimeout(r, 50));
    return (performance.now() - eventsStarted) / 1000;
  };
  const [eventSeconds] = await Promise.all([sendEvents(), ...Array.from({ length: CLIENTS }, client)]);
  if (taskStatus !== 'COMPLETED') errors.push(`import ended ${taskStatus}`);

  console.log(
    JSON.stringify(
      {
        bench: 'load',
        rows: ROWS,
        clients: CLIENTS,
        events: EVENTS,
        import_seconds: round(importSeconds),
        events_delivered: deliveryIds.size,
        events_seconds: round(eventSeconds),
        polls: pollMs.length,
        poll_ms: { p50: round(percentile(pollMs, 50)), p99: round(percentile(pollMs, 99)), max: round(Math.max(...pollMs)) },
        peak_rss_mb: server.peakRssMb(),
        errors: errors.slice(0, 20),
        targets: { errors: target(errors.length, 0), poll_p99_ms: target(percentile(pollMs, 99), 100) },
      },
      null,
      2,
    ),
  );
} finally {
  await server.stop();
  receiver.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
