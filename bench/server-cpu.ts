/**
 * The server process's CPU per simulated webhook event and per task poll, as the API benchmark's
 * loaded phase drives them, without the import (so the figures do not depend on the machine's
 * load: CPU time, not wall time). The server runs as a child process; its CPU (user + system,
 * every thread) is read from /proc (Linux) around each round. Prints JSON.
 *
 * - event: POST /api/service-confirmations/simulate (10 at a time, as bench/api.bench.ts sends
 *   them) until the bare receiver has every delivery: request, confirmation, outbox, dispatch,
 *   encryption, the POST and its record.
 * - poll: GET /api/background-tasks/uuid/{uuid} with a key (autocannon, 50 connections), of a
 *   finished task (the answer is cached while the database is unchanged) and of a task whose row
 *   changes between polls (as during an import: no cached answer).
 *
 *   node bench/server-cpu.ts [--events 2000] [--polls 20000] [--rounds 5] [--only events|polls] [--no-webhook]
 *   SERVER_CPU_PROFILE=DIR writes the server's CPU profile to DIR (bench/profile-top.ts reads it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Worker } from 'node:worker_threads';
import { writeQrBenchCsv } from './qr-data.ts';
import { startBareServer } from './bare-server.ts';
import { processCpuSeconds } from './proc-stat.ts';
import { median, OUT, round, startChildServer, type ChildServer } from './support.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '2000' },
    polls: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    only: { type: 'string' },
    'no-webhook': { type: 'boolean', default: false },
  },
});
const EVENTS = Number(values.events);
const POLLS = Number(values.polls);
const ROUNDS = Number(values.rounds);
const ONLY = values.only;
/** Events without a subscribed webhook: the request and its transaction alone, no delivery. */
const NO_WEBHOOK = values['no-webhook'];
const PROFILE_DIR = process.env.SERVER_CPU_PROFILE;

/** Rewrites the task's row until told to stop; posts how many times. */
const TOUCHER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require('better-sqlite3');
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const touch = db.prepare('update background_tasks set updated_on = ? where uuid = ?');
const pause = new Int32Array(new SharedArrayBuffer(4));
let n = 0;
while (Atomics.load(workerData.stop, 0) === 0) {
  touch.run(new Date().toISOString(), workerData.task);
  n++;
  Atomics.wait(pause, 0, 0, 0.2);
}
db.close();
parentPort.postMessage(n);
`;
const touchesPerPoll: number[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The webhook receiver: bare node:http, counting deliveries. */
async function startReceiver(): Promise<{ url: string; stop: () => void; count: () => Promise<number> }> {
  const bare = await startBareServer({});
  return { url: bare.url, stop: () => bare.child.kill('SIGTERM'), count: bare.deliveries };
}

async function simulateEvents(server: ChildServer, receiver: Awaited<ReturnType<typeof startReceiver>>, count: number) {
  const target = (await receiver.count()) + (NO_WEBHOOK ? 0 : count);
  const body = JSON.stringify({ organization_uuid: server.organizationUuid, event: 'service_confirmation.check_in' });
  for (let i = 0; i < count; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, async () => {
        const res = await server.request('/api/service-confirmations/simulate', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        if (res.status !== 201) throw new Error(`simulate ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }),
    );
  }
  while ((await receiver.count()) < target) await sleep(20);
  // Attempts are recorded just after the receiver answers.
  await sleep(200);
}

async function poll(server: ChildServer, uuid: string, amount: number): Promise<number> {
  const result = await autocannon({
    url: `${server.url}/api/background-tasks/uuid/${uuid}`,
    connections: Math.min(50, amount),
    amount,
    headers: { authorization: server.auth },
  });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0) throw new Error(`${failed} polls failed`);
  return result.requests.total;
}

/** CPU µs per unit of `work` (which returns how many units it did), measured on the server process. */
async function perUnit(server: ChildServer, work: () => Promise<number>): Promise<number> {
  const before = processCpuSeconds(server.child.pid);
  const units = await work();
  return Math.round(((processCpuSeconds(server.child.pid) - before) * 1e6) / units);
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const smallCsv = path.join(OUT, 'server-cpu-qr-20.csv');
  writeQrBenchCsv(smallCsv, 20);
  const receiver = await startReceiver();
  const savedOptions = process.env.NODE_OPTIONS;
  if (PROFILE_DIR)
    process.env.NODE_OPTIONS = [savedOptions, `--cpu-prof --cpu-prof-dir=${path.resolve(PROFILE_DIR)}`].filter(Boolean).join(' ');
  const server = await startChildServer(undefined, ['--log-level', 'info']);
  if (savedOptions === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = savedOptions;
  try {
    if (!NO_WEBHOOK) {
      const hook = await server.request('/api/webhooks/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          organization_uuid: server.organizationUuid,
          url: `${receiver.url}/hook`,
          events: ['service_confirmation.check_in'],
        }),
      });
      if (hook.status !== 201) throw new Error(`register: ${hook.status} ${await hook.text()}`);
    }
    const form = new FormData();
    form.set('organization_uuid', server.organizationUuid);
    form.set('file', await fs.openAsBlob(smallCsv), 'qr.csv');
    const upload = await server.request('/api/qrcodes/bulk', { method: 'POST', body: form });
    const { background_task_uuid: task } = (await upload.json()) as { background_task_uuid: string };
    for (;;) {
      const state = (await (await server.request(`/api/background-tasks/uuid/${task}`)).json()) as { status: string };
      if (state.status === 'COMPLETED' || state.status === 'FAILED') break;
      await sleep(50);
    }

    // A task whose row another connection (a worker thread of this process) rewrites every 0.2 ms, so
    // that nearly every poll finds the database changed, as polls during an import often do.
    const changing = async (amount: number) => {
      const stop = new Int32Array(new SharedArrayBuffer(4));
      const toucher = new Worker(TOUCHER, { eval: true, workerData: { file: path.join(server.dataDir, 'qr-sandbox.db'), task, stop } });
      const touches = new Promise<number>((resolve, reject) => {
        toucher.once('message', resolve);
        toucher.once('error', reject);
      });
      try {
        const polls = await poll(server, task, amount);
        Atomics.store(stop, 0, 1);
        touchesPerPoll.push(round((await touches) / polls));
        return polls;
      } finally {
        Atomics.store(stop, 0, 1);
      }
    };

    // Warm-up (JIT, statements, connection pools): the CPU per event keeps falling for the first thousand or so.
    if (ONLY !== 'polls') await simulateEvents(server, receiver, 1000);
    if (ONLY !== 'events') await poll(server, task, Math.min(2000, POLLS));

    const event: number[] = [];
    const pollCached: number[] = [];
    const pollChanging: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (ONLY !== 'polls') {
        event.push(
          await perUnit(server, async () => {
            await simulateEvents(server, receiver, EVENTS);
            return EVENTS;
          }),
        );
      }
      if (ONLY === 'events') continue;
      pollCached.push(await perUnit(server, () => poll(server, task, POLLS)));
      pollChanging.push(await perUnit(server, () => changing(POLLS)));
    }
    const summary = (xs: number[]) => (xs.length === 0 ? null : { min: Math.min(...xs), median: median(xs), runs: xs });
    console.log(
      JSON.stringify(
        {
          bench: 'server-cpu',
          events_per_round: EVENTS,
          events_delivered: !NO_WEBHOOK,
          polls_per_round: POLLS,
          rounds: ROUNDS,
          machine: { cpus: os.cpus().length, load_average_1m: round(os.loadavg()[0] ?? NaN), node: process.version },
          cpu_us_per_event: summary(event),
          cpu_us_per_poll_unchanged_task: summary(pollCached),
          cpu_us_per_poll_changing_task: summary(pollChanging),
          changing_task_row_writes_per_poll: touchesPerPoll,
        },
        null,
        2,
      ),
    );
  } finally {
    await server.stop();
    receiver.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

await main();
