/**
 * Webhook delivery throughput and latency: N events through the whole app (confirmation + outbox
 * transaction, dispatcher, encryption, HTTP) to a local receiver, against a bare Node fetch POST
 * loop with the same concurrency to the same receiver, measured in the same run. Prints JSON.
 *
 *   node bench/webhooks.ts [--events 10000]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { simulateConfirmation } from '../server/confirmations/confirmations.ts';
import { startServer } from '../server/server.ts';
import { seal } from '../server/wire-format/seal.ts';
import { DEFAULT_CONCURRENCY, DEFAULT_PER_WEBHOOK_CONCURRENCY } from '../server/webhooks/dispatcher.ts';
import { queueEvent } from '../server/webhooks/outbox.ts';

const { values } = parseArgs({ options: { events: { type: 'string', default: '10000' } } });
const EVENTS = Number(values.events);
/** All events go to one webhook, so the dispatcher sends at most this many at once; the bare loop uses the same. */
const CONCURRENCY = Math.min(DEFAULT_CONCURRENCY, DEFAULT_PER_WEBHOOK_CONCURRENCY);

const nowMs = () => performance.timeOrigin + performance.now();

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? Number.NaN) * 100) / 100;
}

/** Answers 200 at once and notes when each request arrived, by path and delivery id. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  let bare = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['x-sandbox-delivery-id'];
      if (typeof id === 'string') arrivals.set(id, nowMs());
      else bare++;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    arrivals,
    bareCount: () => bare,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function bareLoop(url: string, body: string, count: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = nowMs();
  const cpuBefore = process.cpuUsage();
  const worker = async () => {
    while (next < count) {
      next++;
      const t0 = nowMs();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.text();
      if (res.status !== 200) throw new Error(`bare loop got ${res.status}`);
      latencies.push(nowMs() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (nowMs() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  return {
    requests: count,
    cpu_us_per_request: Math.round((cpu.user + cpu.system) / count),
    seconds: Math.round(seconds * 100) / 100,
    per_second: Math.round(count / seconds),
    request_p50_ms: percentile(latencies, 50),
    request_p99_ms: percentile(latencies, 99),
  };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-bench-webhooks-'));
  const receiver = await startReceiver();
  const server = await startServer({ dataDir, port: 0, logLevel: 'warn' });
  try {
    const credentials = server.credentials;
    if (!credentials) throw new Error('no demo credentials');
    const organization_uuid = credentials.organization_uuid;
    const auth = `Bearer ${credentials.api_key}:${credentials.api_secret}`;
    const registered = await fetch(`${server.url}/api/webhooks/register`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        organization_uuid,
        url: `${receiver.url}/hook`,
        events: ['service_confirmation.check_in'],
        sandbox_diagnostics: true,
      }),
    });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);

    // A real envelope for the baseline's body size, and the QR code every event uses.
    const sample = await simulateConfirmation(server.ctx, { organization_uuid, event: 'service_confirmation.check_in' });
    const qr_code_uuid = sample.envelope.data.qr_code_uuid;
    const sampleBody = seal(JSON.stringify(sample.envelope), 'bench-secret').body;
    while (receiver.arrivals.size < 1) await new Promise((resolve) => setTimeout(resolve, 10));

    await bareLoop(`${receiver.url}/warmup`, sampleBody, 500);
    const baseline = await bareLoop(`${receiver.url}/bare`, sampleBody, EVENTS);

    const db = server.ctx.db.kysely;
    /** Latency of each delivery of the given events, from the event's created_at to its arrival. */
    const measure = async (eventIds: Set<string>) => {
      // Attempts are recorded just after they end; wait until every one is.
      for (;;) {
        const inFlight = await db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('in_flight', '=', 1)
          .executeTakeFirstOrThrow();
        if (Number(inFlight.n) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const rows = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .select(['d.delivery_id', 'd.status', 'd.attempt_count', 'e.id', 'e.created_at'])
        .execute();
      const latencies: number[] = [];
      let delivered = 0;
      let retries = 0;
      for (const row of rows.filter((r) => eventIds.has(r.id))) {
        if (row.status === 'delivered') delivered++;
        retries += row.attempt_count - 1;
        const arrived = receiver.arrivals.get(row.delivery_id);
        if (arrived !== undefined) latencies.push(arrived - Date.parse(row.created_at));
      }
      latencies.sort((a, b) => a - b);
      return { delivered, retries, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
    };
    const waitForArrivals = async (count: number) => {
      while (receiver.arrivals.size < count) await new Promise((resolve) => setTimeout(resolve, 5));
      return Math.max(...receiver.arrivals.values());
    };

    // 1. Live: each event written by the confirmation logic (its own transaction, as a request would),
    //    while the dispatcher delivers. Shows event-to-delivery latency under load.
    receiver.arrivals.clear();
    const liveIds = new Set<string>();
    let started = nowMs();
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < EVENTS; i++) {
      const queued = await simulateConfirmation(server.ctx, { organization_uuid, event: 'service_confirmation.check_in', qr_code_uuid });
      liveIds.add(queued.envelope.id);
      await new Promise((resolve) => setImmediate(resolve)); // events arrive as separate requests
    }
    const producedSeconds = (nowMs() - started) / 1000;
    const seconds = ((await waitForArrivals(EVENTS)) - started) / 1000;
    const live = await measure(liveIds);
    const cpu = process.cpuUsage(cpuBefore);

    // 2. Backlog: the same number of events already in the outbox (written in one transaction),
    //    drained by the dispatcher. This is the delivery rate compared with the bare loop.
    receiver.arrivals.clear();
    const backlogIds = new Set<string>();
    const data = sample.envelope.data;
    server.ctx.db.sqlite.transaction(() => {
      for (let i = 0; i < EVENTS; i++)
        backlogIds.add(
          queueEvent(server.ctx.db, organization_uuid, 'service_confirmation.check_in', { ...data, uuid: randomUUID() })?.envelope.id ?? '',
        );
    })();
    started = nowMs();
    server.ctx.outbox.wake();
    const drainSeconds = ((await waitForArrivals(EVENTS)) - started) / 1000;
    const backlog = await measure(backlogIds);
    const perSecond = Math.round(EVENTS / drainSeconds);

    const result = {
      bench: 'webhooks',
      events: EVENTS,
      concurrency: CONCURRENCY,
      machine: { cpus: os.cpus().length, load_average_1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100, node: process.version },
      app_live: {
        note: 'events written one by one by POST /api/service-confirmations logic while the dispatcher delivers; the rate is bounded by event creation',
        events_created_per_second: Math.round(EVENTS / producedSeconds),
        deliveries_per_second: Math.round(EVENTS / seconds),
        event_to_delivery_p50_ms: live.p50,
        event_to_delivery_p99_ms: live.p99,
        delivered: live.delivered,
        retries: live.retries,
        cpu_us_per_event: Math.round((cpu.user + cpu.system) / EVENTS),
      },
      app_backlog: {
        note: 'events already in the SQLite outbox, drained by the dispatcher (claim, encrypt, POST, record each attempt)',
        deliveries_per_second: perSecond,
        seconds: Math.round(drainSeconds * 100) / 100,
        event_to_delivery_p50_ms: backlog.p50,
        event_to_delivery_p99_ms: backlog.p99,
        delivered: backlog.delivered,
        retries: backlog.retries,
      },
      bare_fetch_loop: baseline,
      ratio_to_bare: Math.round((perSecond / baseline.per_second) * 100) / 100,
      target_ratio: 0.5,
      meets_target: perSecond / baseline.per_second >= 0.5,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await server.close();
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
