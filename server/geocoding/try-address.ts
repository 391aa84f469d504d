import { ADDRESS_NOT_LOCATED, type Geocoder, PRECISION_MEANINGS } from './geocoder.ts';
import { cellText } from './normalize.ts';
import type { GeocoderAbout, LocateBody, LocateResult } from './schemas.ts';

/**
 * How an import would locate this address: the same geocoder call an import row or a QR code
 * makes, its result, and when it fails the row's error and the reason in plain words.
 */
export function tryAddress(geocoder: Geocoder, body: LocateBody): LocateResult {
  const readFrom = cellText(body.suburb) !== '' || cellText(body.postcode) !== '' ? 'parts' : 'location';
  const located = geocoder.locate(body);
  if (located) {
    const note = geocoder.howLocated?.(body, located) ?? '';
    const meaning = note === '' ? PRECISION_MEANINGS[located.precision] : `${PRECISION_MEANINGS[located.precision]} ${note}`;
    return { located: true, read_from: readFrom, result: { ...located, precision_meaning: meaning }, error: null, reason: null };
  }
  return { located: false, read_from: readFrom, result: null, error: ADDRESS_NOT_LOCATED, reason: geocoder.whyNotLocated?.(body) ?? null };
}

/** The geocoder's own description; a geocoder module that gives none is described only as such. */
export function aboutGeocoder(geocoder: Geocoder): GeocoderAbout {
  return (
    geocoder.about?.() ?? {
      name: 'Custom geocoder module',
      summary: 'This server was started with its own geocoder module, which does not describe itself.',
      offline: false,
      places: 0,
      time_zones: 0,
      countries: [],
      sources: [],
      precisions: [],
      not_located_message: ADDRESS_NOT_LOCATED,
    }
  );
}
