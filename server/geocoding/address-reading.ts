import type { GazetteerCountry } from './countries.ts';
import type { Gazetteer } from './gazetteer.ts';
import type { AddressInput, GeoResult } from './geocoder.ts';

/** Address parts as text, before matching. */
export interface AddressParts {
  suburb: string;
  state: string;
  postcode: string;
  /** The address is a PO box (or locked bag): it keeps a box-only postcode it names. */
  poBox?: boolean;
  /** The address names a street: a box-only postcode it names gives way to the suburb's delivery postcode. */
  street?: boolean;
}

/** How an address was read: the country, the parts (from the columns or the free text) and the result. */
export interface AddressReading {
  result: GeoResult | null;
  /** A country the gazetteer does not hold, named by the country column or at the end of the location. */
  foreign?: string;
  /** Read from the parts (suburb, state, postcode) or from the free-text location. */
  from: 'parts' | 'location';
  parts?: AddressParts;
  /** Numbers in the location shaped like a postcode that were not read as one. */
  notPostcodes: string[];
}

/** agreement() when postcode, state and place all agree. */
export const FULL_AGREEMENT = 4;

/** What reading a location and explaining a result ask of the geocoder (OfflineGeocoder answers it). */
export interface GazetteerLookups {
  readonly gazetteer: Gazetteer;
  read(address: AddressInput): AddressReading;
  best(countries: readonly GazetteerCountry[], parts: AddressParts, countryGiven: boolean): GeoResult | null;
  agreement(country: GazetteerCountry, parts: AddressParts, result: GeoResult): number;
  isPlaceName(key: string): boolean;
  placesNamed(country: GazetteerCountry, key: string): number[];
  stateCodes(country: GazetteerCountry, state: string): string[];
  stateCodesKeyed(country: GazetteerCountry, key: string): string[];
}
