import type { Geocoder } from '../geocoding/geocoder.ts';

/**
 * The one place imports and QR code records get their geocoder. By default it is the offline
 * gazetteer's `loadGeocoder()` from server/geocoding/offline.ts (cached per thread there); a
 * server can be started with another module exporting `loadGeocoder()` (tests use a tiny one).
 */
export const DEFAULT_GEOCODER_MODULE = new URL('../geocoding/offline.ts', import.meta.url).href;

const loaded = new Map<string, Promise<Geocoder>>();

export function loadGeocoderFrom(moduleUrl: string = DEFAULT_GEOCODER_MODULE): Promise<Geocoder> {
  let geocoder = loaded.get(moduleUrl);
  if (!geocoder) {
    geocoder = (async () => {
      const module = (await import(moduleUrl)) as { loadGeocoder?: () => Geocoder | Promise<Geocoder> };
      if (typeof module.loadGeocoder !== 'function') throw new Error(`${moduleUrl} does not export loadGeocoder()`);
      return module.loadGeocoder();
    })();
    geocoder.catch(() => loaded.delete(moduleUrl));
    loaded.set(moduleUrl, geocoder);
  }
  return geocoder;
}
