import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../../server/db/database.ts';
import { startChildServer, PROJECT_ROOT, TINY_GEOCODER_URL } from '../support/child-server.ts';
import { seededRandom } from '../support/seeded-random.ts';

const RUNS = Number(process.env.FIRST_START_RUNS ?? 4);
/** A first start changes files in the data folder about 85 times (database, journal, WAL, credential). */
const FILE_CHANGES = 90;
const SEED = Number(process.env.FIRST_START_SEED ?? Date.now() % 100_000);

/**
 * Starts `serve` on the folder and kills it with SIGKILL at the `events`-th change of a file in the
 * folder (the database, its journal, credentials.json...), or once it runs if it gets that far.
 */
async function killDuringStart(dataDir: string, events: number): Promise<string> {
  fs.mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, ['bin/qr-sandbox.mjs', 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, QR_SANDBOX_GEOCODER_MODULE: TINY_GEOCODER_URL },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let seen = 0;
  let at = 'running';
  const watcher = fs.watch(dataDir, (_event, name) => {
    seen++;
    if (seen === events) {
      at = `change ${seen} (${name})`;
      child.kill('SIGKILL');
    }
  });
  child.stdout.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('running at')) child.kill('SIGKILL');
  });
  await exited;
  watcher.close();
  return at;
}

function organizations(dataDir: string): number {
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return (db.prepare('select count(*) as n from organizations').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe(`kill -9 during the first start, ${RUNS} runs (seed ${SEED})`, () => {
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-first-start-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('after one or two kills at any point of the first start, the next start gives a credential that signs in', async () => {
    const next = seededRandom(SEED);
    for (let run = 0; run < RUNS; run++) {
      const dataDir = path.join(tmp, `run-${run}`);
      const kills: string[] = [];
      for (let k = 0, count = next() < 0.3 ? 2 : 1; k < count; k++)
        kills.push(await killDuringStart(dataDir, 1 + Math.floor(next() * FILE_CHANGES)));
      const server = await startChildServer(dataDir).catch((error: unknown) => {
        throw new Error(`run ${run} (seed ${SEED}), killed at ${kills.join(', ')}: ${String(error)}`);
      });
      try {
        const res = await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}`);
        assert.equal(res.status, 200, `run ${run} (seed ${SEED}), killed at ${kills.join(', ')}: the credential signs in`);
        assert.equal(organizations(dataDir), 1, `run ${run}: one organization`);
        const services = await server.request(`/api/services?organization_uuid=${server.organizationUuid}`);
        assert.equal(services.status, 200);
        assert.equal(((await services.json()) as { items: unknown[] }).items.length, 6, `run ${run}: the demo services`);
      } finally {
        await server.stop();
      }
    }
  });
});
