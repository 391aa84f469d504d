import type { Geocoder } from '../../server/geocoding/geocoder.ts';
import { loadGeocoder as loadOfflineGeocoder } from '../../server/geocoding/offline-geocoder.ts';

export const SLOW_GEOCODER_MODULE = new URL('./slow-geocoder.ts', import.meta.url).href;
/** Milliseconds each lookup takes at least: an import of N rows takes at least N times this. */
export const SLOW_LOOKUP_MS = 4;

const pause = new Int32Array(new SharedArrayBuffer(4));

/** The offline geocoder, slowed down to SLOW_LOOKUP_MS a lookup, like a slow online provider. */
export async function loadGeocoder(): Promise<Geocoder> {
  const real = await loadOfflineGeocoder();
  return {
    locate(address) {
      Atomics.wait(pause, 0, 0, SLOW_LOOKUP_MS);
      return real.locate(address);
    },
  };
}
