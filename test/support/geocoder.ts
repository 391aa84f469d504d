import type { AddressInput, Geocoder, GeoResult } from '../../server/geocoding/geocoder.ts';

/**
 * A small gazetteer for appointment tests, until the offline geocoder (branch `geocoder`) is
 * merged: it locates an address when it mentions one of these places, like the real one does
 * for free text, and nothing else.
 */
const PLACES: { match: RegExp; result: GeoResult }[] = [
  {
    match: /\bmelbourne\b.*\b3000\b/i,
    result: { latitude: -37.814, longitude: 144.963, precision: 'postcode', suburb: 'Melbourne', state: 'VIC', postcode: '3000', country: 'AU', timezone_name: 'Australia/Melbourne' },
  },
  {
    match: /\bfitzroy\b.*\b3065\b/i,
    result: { latitude: -37.798, longitude: 144.978, precision: 'postcode', suburb: 'Fitzroy', state: 'VIC', postcode: '3065', country: 'AU', timezone_name: 'Australia/Melbourne' },
  },
  {
    match: /\bperth\b.*\b6000\b/i,
    result: { latitude: -31.952, longitude: 115.861, precision: 'postcode', suburb: 'Perth', state: 'WA', postcode: '6000', country: 'AU', timezone_name: 'Australia/Perth' },
  },
];

export class TestGeocoder implements Geocoder {
  calls = 0;
  locate(address: AddressInput): GeoResult | null {
    this.calls++;
    const text = [address.location, address.suburb, address.state, address.postcode].filter(Boolean).join(' ');
    return PLACES.find((place) => place.match.test(text))?.result ?? null;
  }
}
