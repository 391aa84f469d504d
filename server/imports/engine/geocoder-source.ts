import type { Geocoder } from '../../geocoding/geocoder.ts';
import { moduleUrl } from '../../module-url.ts';

/**
 * The one place imports and QR code records get their geocoder. By default it is the offline
 * gazetteer's `loadGeocoder()` from server/geocoding/offline-geocoder.ts (cached per process there); a
 * server can be started with another module exporting `loadGeocoder()` (tests use a tiny one).
 */
export const DEFAULT_GEOCODER_MODULE = moduleUrl('../../geocoding/offline-geocoder.ts', import.meta.url).href;

const loaded = new Map<string, Promise<Geocoder>>();

export function loadGeocoderFrom(geocoderModule: string = DEFAULT_GEOCODER_MODULE): Promise<Geocoder> {
  let geocoder = loaded.get(geocoderModule);
  if (!geocoder) {
    geocoder = (async () => {
      const module = (await import(geocoderModule)) as { loadGeocoder?: () => Geocoder | Promise<Geocoder> };
      if (typeof module.loadGeocoder !== 'function') throw new Error(`${geocoderModule} does not export loadGeocoder()`);
      return module.loadGeocoder();
    })();
    geocoder.catch(() => loaded.delete(geocoderModule));
    loaded.set(geocoderModule, geocoder);
  }
  return geocoder;
}
