import fs from 'node:fs';
import type { Geocoder } from '../../server/geocoding/geocoder.ts';
import { tinyGeocoder } from './tiny-geocoder.ts';

/** Names the file whose existence lets import workers have their geocoder. */
export const GEOCODER_GATE_ENV = 'QR_SANDBOX_TEST_GEOCODER_GATE';
export const GATED_GEOCODER_MODULE = new URL('./gated-geocoder.ts', import.meta.url).href;

/**
 * The tiny test geocoder, handed to an import worker process only once the file named by
 * QR_SANDBOX_TEST_GEOCODER_GATE exists: an import started meanwhile stays at its start, whatever
 * the machine's speed, so a test can act on a running import (cancel it) before it can end.
 * The server's own process gets it at once.
 */
export async function loadGeocoder(): Promise<Geocoder> {
  const gate = process.env[GEOCODER_GATE_ENV];
  if (gate && process.env.QR_SANDBOX_WORKER_CONFIG) {
    while (!fs.existsSync(gate)) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return tinyGeocoder;
}
