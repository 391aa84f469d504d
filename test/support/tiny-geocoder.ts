import type { AddressInput, GeoResult, Geocoder } from '../../server/geocoding/geocoder.ts';

/**
 * A test stand-in for the offline geocoder: it knows a few dozen real Australian suburbs
 * (coordinates from GeoNames postal codes) and nothing else. It follows the Geocoder contract
 * so tests and benchmarks can run before the real gazetteer is merged.
 */
export const TINY_SUBURBS: ReadonlyArray<readonly [suburb: string, state: string, postcode: string, lat: number, lng: number, tz: string]> =
  [
    ['Melbourne', 'VIC', '3000', -37.813, 144.9611, 'Australia/Melbourne'],
    ['Carlton', 'VIC', '3053', -37.8007, 144.9661, 'Australia/Melbourne'],
    ['Fitzroy', 'VIC', '3065', -37.8004, 144.9745, 'Australia/Melbourne'],
    ['Richmond', 'VIC', '3121', -37.819, 145.0012, 'Australia/Melbourne'],
    ['Geelong', 'VIC', '3220', -38.1499, 144.3619, 'Australia/Melbourne'],
    ['Ballarat', 'VIC', '3350', -37.5662, 143.8496, 'Australia/Melbourne'],
    ['Sydney', 'NSW', '2000', -33.8718, 151.2002, 'Australia/Sydney'],
    ['Surry Hills', 'NSW', '2010', -33.8846, 151.212, 'Australia/Sydney'],
    ['Bondi', 'NSW', '2026', -33.8933, 151.2642, 'Australia/Sydney'],
    ['Newtown', 'NSW', '2042', -33.9012, 151.1768, 'Australia/Sydney'],
    ['North Sydney', 'NSW', '2060', -33.8376, 151.2083, 'Australia/Sydney'],
    ['Chatswood', 'NSW', '2067', -33.8061, 151.1761, 'Australia/Sydney'],
    ['Manly', 'NSW', '2095', -33.7974, 151.2858, 'Australia/Sydney'],
    ['Newcastle', 'NSW', '2300', -32.9237, 151.7845, 'Australia/Sydney'],
    ['Wollongong', 'NSW', '2500', -34.424, 150.8933, 'Australia/Sydney'],
    ['Fortitude Valley', 'QLD', '4006', -27.4631, 153.0376, 'Australia/Brisbane'],
    ['South Brisbane', 'QLD', '4101', -27.4737, 153.0169, 'Australia/Brisbane'],
    ['Toowoomba', 'QLD', '4350', -27.5606, 151.9539, 'Australia/Brisbane'],
    ['Cairns', 'QLD', '4870', -16.923, 145.7663, 'Australia/Brisbane'],
    ['Glenelg', 'SA', '5045', -34.98, 138.5139, 'Australia/Adelaide'],
    ['Norwood', 'SA', '5067', -34.9216, 138.6317, 'Australia/Adelaide'],
    ['Fremantle', 'WA', '6160', -32.0537, 115.7553, 'Australia/Perth'],
    ['Subiaco', 'WA', '6008', -31.9417, 115.8263, 'Australia/Perth'],
    ['Darwin', 'NT', '0800', -12.4611, 130.8418, 'Australia/Darwin'],
    ['Alice Springs', 'NT', '0870', -23.6991, 133.8808, 'Australia/Darwin'],
    ['Hobart', 'TAS', '7000', -42.8848, 147.3328, 'Australia/Hobart'],
    ['Battery Point', 'TAS', '7004', -42.8894, 147.3327, 'Australia/Hobart'],
    ['Launceston', 'TAS', '7250', -41.4389, 147.1405, 'Australia/Hobart'],
    ['Braddon', 'ACT', '2612', -35.2712, 149.1335, 'Australia/Sydney'],
    ['Kingston', 'ACT', '2604', -35.3149, 149.1448, 'Australia/Sydney'],
  ];

const STATES = ['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA'];
/** Four of its places, in three states, that generated test rows cycle through. */
export const CYCLED_SUBURBS = [
  ['Melbourne', 'VIC', '3000'],
  ['Carlton', 'VIC', '3053'],
  ['Sydney', 'NSW', '2000'],
  ['Hobart', 'TAS', '7000'],
] as const;

const bySuburbState = new Map(TINY_SUBURBS.map((s) => [`${s[0].toLowerCase()}|${s[1]}`, s]));
const byPostcode = new Map(TINY_SUBURBS.map((s) => [s[2], s]));
const TAIL = new RegExp(`(?:^|,)\\s*([A-Za-z][A-Za-z ]*?)\\s+(${STATES.join('|')})\\s+(\\d{3,4})\\s*$`, 'i');

function partsFromLocation(location: string): { suburb: string; state: string; postcode: string } | null {
  const match = TAIL.exec(location.replace(/,?\s*(Australia|AU)\s*$/i, ''));
  if (!match) return null;
  return { suburb: match[1] ?? '', state: (match[2] ?? '').toUpperCase(), postcode: match[3] ?? '' };
}

function isAustralia(country: string | null | undefined): boolean {
  if (!country) return true;
  const c = country.trim().toLowerCase();
  return c === '' || c === 'au' || c === 'australia';
}

export const tinyGeocoder: Geocoder = {
  locate(address: AddressInput): GeoResult | null {
    if (!isAustralia(address.country)) return null;
    let suburb = address.suburb?.trim() ?? '';
    let state = address.state?.trim().toUpperCase() ?? '';
    let postcode = address.postcode?.trim() ?? '';
    if (!suburb && !postcode && address.location) {
      const parsed = partsFromLocation(address.location);
      if (!parsed) return null;
      ({ suburb, state, postcode } = parsed);
    }
    if (postcode.length === 3) postcode = `0${postcode}`;
    const named = suburb ? bySuburbState.get(`${suburb.toLowerCase()}|${state}`) : undefined;
    const hit = named ?? (postcode && !suburb ? byPostcode.get(postcode) : undefined);
    if (!hit) return null;
    const precision = named ? (hit[2] === postcode ? 'postcode' : 'place') : 'postcode_only';
    return {
      latitude: hit[3],
      longitude: hit[4],
      precision,
      suburb: hit[0],
      state: hit[1],
      postcode: hit[2],
      country: 'AU',
      timezone_name: hit[5],
    };
  },
};

/** Same entry point as server/geocoding/offline-geocoder.ts, so a server can be pointed at this module. */
export function loadGeocoder(): Geocoder {
  return tinyGeocoder;
}
