import fs from 'node:fs';
import type { AddressInput, Geocoder } from '../../server/geocoding/geocoder.ts';
import { tinyGeocoder } from './tiny-geocoder.ts';

export const HOSTILE_GEOCODER_MODULE = new URL('./hostile-geocoder.ts', import.meta.url).href;
/**
 * Names a file: the first worker process to load this geocoder says so (`<file>.held`) and is
 * then stuck, its thread blocked, until the file exists. A lookup on "Endless Street" says so in `<file>.endless`.
 */
export const HOLD_FIRST_READER_ENV = 'QR_SANDBOX_TEST_HOLD_FIRST_READER';

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Whether this process is the first to load the geocoder since the test named `hold`. */
function firstToLoad(hold: string): boolean {
  try {
    fs.closeSync(fs.openSync(`${hold}.held`, 'wx'));
    return true;
  } catch {
    return false;
  }
}

/**
 * The tiny test geocoder, made to misbehave as a hostile file makes an upload reader misbehave,
 * whatever the machine's speed:
 * - a lookup of an address on "Endless Street" never ends (its thread blocked, as in a parse that never ends);
 * - a lookup of an address on "Exhausting Street" fills the heap until its process runs out of memory;
 * - with QR_SANDBOX_TEST_HOLD_FIRST_READER set, the first worker process to load it waits (before it
 *   reads anything, so holding no database lock) until the test lets it go on.
 */
export const hostileGeocoder: Geocoder = {
  locate(address: AddressInput) {
    const text = `${address.location ?? ''} ${address.address_line_1 ?? ''}`;
    if (text.includes('Endless Street')) {
      const hold = process.env[HOLD_FIRST_READER_ENV];
      if (hold) fs.writeFileSync(`${hold}.endless`, '');
      for (;;) Atomics.wait(pause, 0, 0, 1000);
    }
    if (text.includes('Exhausting Street')) {
      const hoard: number[][] = [];
      for (;;) hoard.push(new Array(1_000_000).fill(hoard.length + 0.5));
    }
    return tinyGeocoder.locate(address);
  },
};

export function loadGeocoder(): Geocoder {
  const hold = process.env[HOLD_FIRST_READER_ENV];
  if (hold && process.env.QR_SANDBOX_WORKER_CONFIG && firstToLoad(hold)) {
    while (!fs.existsSync(hold)) Atomics.wait(pause, 0, 0, 20);
  }
  return hostileGeocoder;
}
