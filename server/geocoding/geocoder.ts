import type { GeocoderAbout } from './schemas.ts';

/** What an import row or a QR code body says about where it is. Any part may be missing. */
export interface AddressInput {
  location?: string | null;
  address_line_1?: string | null;
  suburb?: string | null;
  state?: string | null;
  postcode?: string | null;
  /** Name or ISO 3166 alpha-2 code, e.g. "Australia" or "AU". */
  country?: string | null;
}

/**
 * How closely an address was located:
 * - postcode: suburb/place, state and postcode agree (a confident match)
 * - place: matched on place name (and state) but the postcode disagreed or was missing
 * - city: a city-level match outside Australia
 * - postcode_only: only the postcode was recognised
 */
export type GeoPrecision = 'postcode' | 'place' | 'city' | 'postcode_only';

/** The precisions in words, for people (GET /api/geocoder, the Settings page). */
export const PRECISION_MEANINGS: Record<GeoPrecision, string> = {
  postcode: 'Suburb, state and postcode agree: a confident match (Australia).',
  place: "Found by suburb name and state; the postcode was missing or disagreed, so the suburb's own postcode is used (Australia).",
  city: 'The place was found with its postcode, near it, or in the given state (United States, United Kingdom, Canada, Italy).',
  postcode_only: 'Only the postcode was recognised: the middle of its places.',
};

export interface GeoResult {
  latitude: number;
  longitude: number;
  precision: GeoPrecision;
  /** Normalised address parts as the gazetteer has them. */
  suburb: string;
  state: string;
  postcode: string;
  /** ISO 3166 alpha-2, e.g. AU */
  country: string;
  /** IANA zone of the place, e.g. Australia/Melbourne */
  timezone_name: string;
}

/** The spec's message (part 7, rule 3) for an address that cannot be located. */
export const ADDRESS_NOT_LOCATED = 'Address could not be located. Please check the street address, suburb, state, postcode and country.';

/**
 * Synchronous and in-memory once loaded: imports call it for every row.
 * The offline implementation: `loadGeocoder()` (one per process) or `createOfflineGeocoder()`
 * in `offline-geocoder.ts`; matching rules in docs/geocoding.md.
 */
export interface Geocoder {
  /** The place of an address, or null. The result may be shared between calls (the offline geocoder freezes its remembered answers): read it, never change it. */
  locate(address: AddressInput): Readonly<GeoResult> | null;
  /** What this geocoder is: coverage, size, data sources and licences (GET /api/geocoder). */
  about?(): GeocoderAbout;
  /** Why locate() gives null for this address, in one or two plain sentences (POST /api/geocoder/locate). */
  whyNotLocated?(address: AddressInput): string;
  /** For a located address, which part won when the parts disagreed or which postcode was chosen; '' when they simply agree. */
  howLocated?(address: AddressInput, result: GeoResult): string;
}
