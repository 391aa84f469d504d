import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildWorkerBundle } from '../../scripts/build-worker.ts';
import { freshWorkerBundle, REPOSITORY_DIR, workerSourceFingerprint } from '../../server/imports/workers/worker-bundle.ts';
import { fileUpload, waitForTask } from '../support/imports.ts';
import { childPids, commandLine } from '../support/processes.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/${name}`, import.meta.url));

/** The files a field admin brings, as LibreOffice saved them: QR codes as a workbook and as CSV, appointments as a workbook. */
const IMPORTS = [
  { endpoint: '/api/qrcodes/bulk', file: 'qr-libreoffice.xlsx' },
  { endpoint: '/api/qrcodes/bulk', file: 'qr-libreoffice-source.csv' },
  { endpoint: '/api/appointment_schedule/bulk', file: 'appointments-libreoffice.xlsx' },
] as const;

/** A record as JSON without what differs between two runs: uuids and times, at any depth. */
const withoutIds = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v) => (/uuid$|_on$/.test(key) ? undefined : v)));

/** What the organization holds after the imports, without what differs between two runs (uuids, times). */
async function stored(server: TestServer): Promise<{ results: unknown[]; qrcodes: unknown[]; appointments: unknown[] }> {
  const results: unknown[] = [];
  for (const { endpoint, file } of IMPORTS) {
    const accepted = await server.request(endpoint, fileUpload(fixture(file), file, { organization_uuid: server.organizationUuid }));
    assert.equal(accepted.status, 202, await accepted.clone().text());
    const { background_task_uuid } = (await accepted.json()) as { background_task_uuid: string };
    const task = await waitForTask(server, background_task_uuid);
    assert.equal(task.status, 'COMPLETED', JSON.stringify(task));
    results.push(withoutIds(task.results));
  }
  const list = async (pathname: string) => {
    const body = (await (await server.request(`${pathname}?organization_uuid=${server.organizationUuid}&per_page=100`)).json()) as {
      items: Record<string, unknown>[];
    };
    return body.items.map(withoutIds).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  };
  return { results, qrcodes: await list('/api/qrcodes'), appointments: await list('/api/appointment_schedule') };
}

describe('the import worker bundle (dist/worker/)', () => {
  let dir: string;
  let entry: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-worker-bundle-'));
    // The bundle loads better-sqlite3 from node_modules above it, as dist/worker/ does in the repository.
    fs.symlinkSync(path.join(REPOSITORY_DIR, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    await buildWorkerBundle({ outDir: path.join(dir, 'worker') });
    entry = path.join(dir, 'worker', 'worker.mjs');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is used only while it matches the sources, and never when QR_SANDBOX_WORKER_BUNDLE=0', () => {
    const setting = process.env.QR_SANDBOX_WORKER_BUNDLE;
    try {
      delete process.env.QR_SANDBOX_WORKER_BUNDLE;
      assert.equal(freshWorkerBundle({ bundleDir: path.join(dir, 'worker') }), entry);
      assert.equal(freshWorkerBundle({ bundleDir: path.join(dir, 'nothing-here') }), null);
      process.env.QR_SANDBOX_WORKER_BUNDLE = '0';
      assert.equal(freshWorkerBundle({ bundleDir: path.join(dir, 'worker') }), null);
    } finally {
      if (setting === undefined) delete process.env.QR_SANDBOX_WORKER_BUNDLE;
      else process.env.QR_SANDBOX_WORKER_BUNDLE = setting;
    }
    const root = path.join(dir, 'tree');
    fs.mkdirSync(path.join(root, 'server', 'imports'), { recursive: true });
    fs.writeFileSync(path.join(root, 'package-lock.json'), '{}');
    fs.writeFileSync(path.join(root, 'server', 'imports', 'engine.ts'), 'export const a = 1;\n');
    const built = workerSourceFingerprint(root);
    assert.equal(workerSourceFingerprint(root), built);
    fs.writeFileSync(path.join(root, 'server', 'imports', 'engine.ts'), 'export const a = 12;\n');
    assert.notEqual(workerSourceFingerprint(root), built, 'a changed source');
    const changed = workerSourceFingerprint(root);
    fs.writeFileSync(path.join(root, 'server', 'imports', 'new.ts'), '');
    assert.notEqual(workerSourceFingerprint(root), changed, 'a new source');
    const added = workerSourceFingerprint(root);
    fs.mkdirSync(path.join(root, 'common'));
    fs.writeFileSync(path.join(root, 'common', 'shared.ts'), 'export const b = 2;\n');
    assert.notEqual(workerSourceFingerprint(root), added, 'a source under common/, which server/ imports');
  });

  it('imports what the sources import: the same results, QR codes and appointments, from the bundle’s processes', async () => {
    const fromSources = await startTestServer();
    let expected;
    try {
      expected = await stored(fromSources);
    } finally {
      await fromSources.stop();
    }
    const fromBundle = await startTestServer({ imports: { workerEntry: entry } });
    try {
      const actual = await stored(fromBundle);
      const bundled = childPids(process.pid).filter((pid) => commandLine(pid).includes(entry));
      assert.ok(bundled.length > 0, 'the import worker runs the bundle');
      assert.deepEqual(actual, expected);
      assert.equal((actual.qrcodes as unknown[]).length > 0 && (actual.appointments as unknown[]).length > 0, true);
    } finally {
      await fromBundle.stop();
    }
  });
});
