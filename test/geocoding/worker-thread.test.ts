import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';

// What an import worker does: load the geocoder in its own thread and locate rows there.
const workerSource = `
import { parentPort, workerData } from 'node:worker_threads';
const { loadGeocoder } = await import(workerData.module);
const first = loadGeocoder();
const rows = workerData.rows.map((row) => first.locate(row));
parentPort.postMessage({ rows, cached: loadGeocoder() === first });
`;

test('each worker thread loads its own geocoder once and locates rows', async () => {
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: {
      module: new URL('../../server/geocoding/offline-geocoder.ts', import.meta.url).href,
      rows: [{ suburb: 'Darwin', state: 'NT', postcode: 800 }, { location: 'asdf' }],
    },
  });
  const message = await new Promise<{ rows: ({ postcode: string } | null)[]; cached: boolean }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.equal(message.cached, true);
  assert.equal(message.rows[0]?.postcode, '0800');
  assert.equal(message.rows[1], null);
});
