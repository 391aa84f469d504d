import fs from 'node:fs';
import type { Geocoder } from '../../../server/geocoding/geocoder.ts';
import { loadGeocoder as loadOfflineGeocoder } from '../../../server/geocoding/offline-geocoder.ts';

/** The file whose existence lets imports go on: a test holds an import PROCESSING until it creates it. */
export const GATE_ENV = 'QR_SANDBOX_TEST_IMPORT_GATE';
/** How many lookups of each worker pass before the gate applies (default 0): lets an import commit its first batches, then hold. */
export const GATE_AFTER_ENV = 'QR_SANDBOX_TEST_IMPORT_GATE_AFTER';
export const GATED_GEOCODER_MODULE = new URL('./gated-geocoder.ts', import.meta.url).href;

const pause = new Int32Array(new SharedArrayBuffer(4));

/** The offline geocoder, except that lookups in an import worker (after the first GATE_AFTER) wait until the gate file exists. */
export async function loadGeocoder(): Promise<Geocoder> {
  const real = await loadOfflineGeocoder();
  const after = Number(process.env[GATE_AFTER_ENV] ?? 0);
  let lookups = 0;
  return {
    locate(address) {
      const gate = process.env[GATE_ENV];
      lookups += 1;
      while (gate && lookups > after && !fs.existsSync(gate)) Atomics.wait(pause, 0, 0, 20);
      return real.locate(address);
    },
  };
}
