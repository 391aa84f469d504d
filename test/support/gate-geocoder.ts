import fs from 'node:fs';
import path from 'node:path';
import type { Geocoder } from '../../server/geocoding/geocoder.ts';
import { tinyGeocoder } from './tiny-geocoder.ts';

/**
 * The tiny test geocoder, with a gate: looking up an address whose location holds GATE_MARK
 * writes `waiting` (the id of the process it blocks) into the folder named by
 * QR_SANDBOX_TEST_GATE_DIR and blocks until the test writes `open` there. A test so knows an
 * import is in the middle of a batch, with the ones before it committed (e.g. to fill the disk
 * right then), and which worker process runs it.
 */
export const GATE_GEOCODER_MODULE = new URL('./gate-geocoder.ts', import.meta.url).href;
export const GATE_MARK = 'GATE';
export const GATE_DIR_ENV = 'QR_SANDBOX_TEST_GATE_DIR';

const pause = new Int32Array(new SharedArrayBuffer(4));

export function loadGeocoder(): Geocoder {
  const dir = process.env[GATE_DIR_ENV];
  return {
    locate(address) {
      if (dir && address.location?.includes(GATE_MARK)) {
        fs.writeFileSync(path.join(dir, 'waiting'), String(process.pid));
        while (!fs.existsSync(path.join(dir, 'open'))) Atomics.wait(pause, 0, 0, 10);
      }
      return tinyGeocoder.locate(address);
    },
  };
}
