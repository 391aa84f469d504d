import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../../server/db/database.ts';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { TINY_SUBURBS } from '../support/tiny-geocoder.ts';
import { startReceiver } from '../webhooks/support.ts';
import { seededRandom } from '../support/seeded-random.ts';

const RUNS = Number(process.env.KILL9_RUNS ?? 5);
const ROWS = 20_000;
const BURST = 200;
const SEED = Number(process.env.KILL9_SEED ?? Date.now() % 100_000);

/** Rows without an external reference: a row written twice would show as a duplicate (name, location). */
function writeCsv(file: string, run: number): void {
  const lines = ['name,location'];
  for (let i = 0; i < ROWS; i++) {
    const [suburb, state, postcode] = TINY_SUBURBS[i % TINY_SUBURBS.length] ?? [];
    lines.push(`Run ${run} site ${i},"${i} High Street, ${suburb} ${state} ${postcode}"`);
  }
  fs.writeFileSync(file, `${lines.join('\r\n')}\r\n`);
}

interface Task {
  status: string;
  error_message: string | null;
  results: Record<string, unknown> | null;
}

async function poll<T>(what: string, probe: () => Promise<T | undefined>, limit = 6000): Promise<T> {
  for (let i = 0; i < limit; i++) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe(`kill -9 at random moments of an import and a delivery burst, ${RUNS} runs (seed ${SEED})`, () => {
  let dir: string;
  let server: ChildServer | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-kill9-'));
    receiver = await startReceiver();
  });
  after(async () => {
    await server?.kill();
    await receiver.close();
    if (process.env.KILL9_KEEP) console.error(`kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  });

  it('after every restart: the import ends with each row once, no task PROCESSING, every accepted event delivered, integrity_check ok', async () => {
    const next = seededRandom(SEED);
    const dataDir = path.join(dir, 'data');
    const start = () => startChildServer(dataDir, ['--retry-schedule', 'fast'], { freshConnections: true });
    server = await start();
    const org = server.organizationUuid;
    const hook = await server.request('/api/webhooks/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        organization_uuid: org,
        url: `${receiver.url}/hook`,
        events: ['service_confirmation.check_in'],
        sandbox_diagnostics: true,
      }),
    });
    assert.equal(hook.status, 201, await hook.clone().text());
    const accepted = new Set<string>();
    const outcomes: string[] = [];

    for (let run = 0; run < RUNS; run++) {
      const live: ChildServer = server;
      const csv = path.join(dir, `run-${run}.csv`);
      writeCsv(csv, run);
      const form = new FormData();
      form.set('organization_uuid', org);
      form.set('file', await fs.openAsBlob(csv), `run-${run}.csv`);
      const uploaded = await live.request('/api/qrcodes/bulk', { method: 'POST', body: form });
      assert.equal(uploaded.status, 202, await uploaded.clone().text());
      const taskUuid = ((await uploaded.json()) as { background_task_uuid: string }).background_task_uuid;

      let stopped = false;
      const stream = async (count: number) => {
        for (let i = 0; i < count && !stopped; i++) {
          try {
            const res = await live.request('/api/service-confirmations/simulate', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ organization_uuid: org, event: 'service_confirmation.check_in' }),
            });
            if (res.status !== 201) throw new Error(`simulate answered ${res.status}: ${await res.text()}`);
            const body = (await res.json()) as { deliveries: { delivery_id: string }[] };
            for (const d of body.deliveries) accepted.add(d.delivery_id);
          } catch (error) {
            if (!stopped) throw error;
          }
        }
      };
      // The burst: 8 clients at once, BURST events in all, cut off by the kill.
      const burst = Promise.all(Array.from({ length: 8 }, () => stream(BURST / 8)));
      await new Promise((r) => setTimeout(r, Math.floor(next() * 1500)));
      stopped = true;
      await live.kill();
      await burst.catch(() => undefined);
      fs.rmSync(csv, { force: true });

      server = await start();
      const restarted: ChildServer = server;
      const ended = await poll('the import to end', async () => {
        const task = (await (await restarted.request(`/api/background-tasks/uuid/${taskUuid}`)).json()) as Task;
        return task.status === 'COMPLETED' || task.status === 'FAILED' ? task : undefined;
      });
      outcomes.push(ended.status);
      assert.equal(ended.status, 'COMPLETED', `run ${run}: ${ended.error_message ?? ''}`);
      assert.equal(ended.results?.excluded, 0);
      assert.equal(
        Number(ended.results?.inserted ?? 0) + Number(ended.results?.updated ?? 0),
        ROWS,
        `run ${run}: ${JSON.stringify(ended.results)}`,
      );

      const tasks = (await (await restarted.request(`/api/background-tasks?organization_uuid=${org}&per_page=100`)).json()) as {
        items: { status: string }[];
      };
      assert.deepEqual(
        tasks.items.filter((t) => t.status === 'PROCESSING' || t.status === 'PENDING'),
        [],
        `run ${run}: a task left running`,
      );

      await poll('every accepted event to arrive', async () => {
        const arrived = new Set(receiver.received.map((r) => String(r.headers['x-sandbox-delivery-id'])));
        return [...accepted].every((id) => arrived.has(id)) ? true : undefined;
      });

      // Events whose answer the kill cut off were never "accepted" here, but they are in the outbox too: wait for all of them.
      const pendingDeliveries = () => {
        const check = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
        try {
          return (check.prepare("select count(*) as n from webhook_deliveries where status = 'pending'").get() as { n: number }).n;
        } finally {
          check.close();
        }
      };
      await poll('the outbox to drain', async () => (pendingDeliveries() === 0 ? true : undefined));

      const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
      try {
        assert.equal(db.pragma('integrity_check', { simple: true }), 'ok', `run ${run}: integrity_check`);
        const rows = db
          .prepare("select count(*) as n, count(distinct name) as d from qrcodes where organization_uuid = ? and name like 'Run %'")
          .get(org) as { n: number; d: number };
        assert.equal(rows.n, ROWS * (run + 1), `run ${run}: rows lost or duplicated`);
        assert.equal(rows.d, rows.n, `run ${run}: a row was written twice`);
        const failed = db.prepare("select count(*) as n from webhook_deliveries where status = 'failed'").get() as { n: number };
        assert.equal(failed.n, 0, `run ${run}: a delivery gave up`);
      } finally {
        db.close();
      }
    }
    assert.ok(accepted.size > 0, 'events were accepted before the kills');
    console.log(
      JSON.stringify({ seed: SEED, runs: RUNS, events_accepted: accepted.size, requests_received: receiver.received.length, outcomes }),
    );
  });
});
