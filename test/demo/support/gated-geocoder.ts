import fs from 'node:fs';
import type { Geocoder } from '../../../server/geocoding/geocoder.ts';
import { loadGeocoder as loadOfflineGeocoder } from '../../../server/geocoding/offline-geocoder.ts';

/** The file whose existence lets imports go on: a test holds an import PROCESSING until it creates it. */
export const GATE_ENV = 'QR_SANDBOX_TEST_IMPORT_GATE';
export const GATED_GEOCODER_MODULE = new URL('./gated-geocoder.ts', import.meta.url).href;

const pause = new Int32Array(new SharedArrayBuffer(4));

/** The offline geocoder, except that every lookup in an import worker waits until the gate file exists. */
export async function loadGeocoder(): Promise<Geocoder> {
  const real = await loadOfflineGeocoder();
  return {
    locate(address) {
      const gate = process.env[GATE_ENV];
      while (gate && !fs.existsSync(gate)) Atomics.wait(pause, 0, 0, 20);
      return real.locate(address);
    },
  };
}
