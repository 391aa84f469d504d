import { ADDRESS_NOT_LOCATED, type AddressInput, type Geocoder } from '../../geocoding/geocoder.ts';

/**
 * An import row's error for an address the geocoder cannot locate: the spec's sentence first
 * (clients match on it), then the geocoder's explanation when it gives one, e.g.
 * `"Richmond" is a place in several states (...): add the state or the postcode.`
 */
export function notLocatedError(geocoder: Geocoder, address: AddressInput): string {
  const reason = geocoder.whyNotLocated?.(address)?.trim();
  return reason ? `${ADDRESS_NOT_LOCATED} ${reason}` : ADDRESS_NOT_LOCATED;
}
