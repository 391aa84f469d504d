import type { AddressInput, GeoResult, Geocoder } from '../../geocoding/geocoder.ts';

/** The start of the warning for an address located other than as written (clients may match on it). */
export const LOCATED_APPROXIMATELY = 'Address located, but not exactly as written:';

/**
 * The warning of an import row whose address was located by its place or its postcode alone,
 * when a part it gave (the postcode, the state) was not borne out, e.g. `Carlton VIC 9999`:
 * "Address located, but not exactly as written: The suburb won: postcode 9999 is not Carlton VIC's,
 * so its own postcode 3053 is used." Null for a confident match, and when only the postcode was
 * missing (nothing given was overruled). Cheap for confident matches, the usual case.
 */
export function locatedWarning(geocoder: Geocoder, address: AddressInput, result: Readonly<GeoResult>): string | null {
  if (result.precision !== 'place' && result.precision !== 'postcode_only') return null;
  const how = geocoder.howLocated?.(address, result).trim() ?? '';
  if (how === '' || how.startsWith('No postcode was given')) return null;
  return `${LOCATED_APPROXIMATELY} ${how}`;
}
