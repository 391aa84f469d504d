import { COUNTRY_DISPLAY_NAMES, GAZETTEER_COUNTRIES } from './countries.ts';
import type { Gazetteer } from './gazetteer.ts';
import { ADDRESS_NOT_LOCATED, type GeoPrecision, PRECISION_MEANINGS } from './geocoder.ts';
import type { GeocoderAbout } from './schemas.ts';

/** The data the gazetteer is built from, with the credit its licence asks for (docs/geocoding.md, "Data and attribution"). */
const SOURCES: GeocoderAbout['sources'] = [
  {
    name: 'GeoNames postal codes (AU, US, GB, CA, IT)',
    url: 'https://www.geonames.org',
    licence: 'Creative Commons Attribution 4.0',
    licence_url: 'https://creativecommons.org/licenses/by/4.0/',
    attribution: '© GeoNames (www.geonames.org). The GB data contains Royal Mail data © Royal Mail copyright and database right.',
  },
  {
    name: 'Time zones assigned at build time with @photostructure/tz-lookup (zone shapes from timezone-boundary-builder, from OpenStreetMap data)',
    url: 'https://www.npmjs.com/package/@photostructure/tz-lookup',
    licence: 'CC0-1.0 (library); ODbL (OpenStreetMap-derived zone shapes)',
    licence_url: 'https://opendatacommons.org/licenses/odbl/',
    attribution: 'Time zone boundaries © OpenStreetMap contributors, via timezone-boundary-builder.',
  },
];

const PRECISIONS = Object.keys(PRECISION_MEANINGS) as GeoPrecision[];

/** What the offline gazetteer holds: counted from the loaded data, not written down. */
export function describeGazetteer(g: Gazetteer): GeocoderAbout {
  return {
    name: 'Offline GeoNames gazetteer',
    summary:
      'Addresses are located on this machine from a gazetteer shipped with the app (server/geocoding/data/gazetteer.tsv.gz): ' +
      'suburb or place, state and postcode are matched to a place with its coordinates and time zone. Without a country, Australia is tried first; ' +
      'an address naming a country it does not cover is not located. Nothing is sent over the network.',
    offline: true,
    places: g.size,
    time_zones: new Set(g.zone.subarray(0, g.size)).size,
    countries: GAZETTEER_COUNTRIES.map((code) => {
      const index = g.countries.get(code);
      return { code, name: COUNTRY_DISPLAY_NAMES[code], places: index?.byPostcode.placeCount ?? 0, postcodes: index?.byPostcode.size ?? 0 };
    }),
    sources: SOURCES,
    precisions: PRECISIONS.map((precision) => ({ precision, meaning: PRECISION_MEANINGS[precision] })),
    not_located_message: ADDRESS_NOT_LOCATED,
  };
}
