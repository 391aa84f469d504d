import type { GeoResult } from '../geocoding/geocoder.ts';

/** Address helpers shared by QR code records and QR code imports. */

const POSTCODE_DIGITS: Record<string, number> = { au: 4, australia: 4, us: 5, usa: 5, 'united states': 5, it: 5, italy: 5 };
const LONGEST_POSTCODE = Math.max(...Object.values(POSTCODE_DIGITS));

/** Country cells remembered as given; beyond them a cell is read each time. */
const REMEMBERED_COUNTRY_CELLS = 100;
const digitsByCountry = new Map<string, number | undefined>();

/** The postcode length of a country cell, remembered as given: an import repeats a few spellings on every row (no lower-cased copy per row). */
function postcodeDigits(country: string): number | undefined {
  if (digitsByCountry.has(country)) return digitsByCountry.get(country);
  const digits = POSTCODE_DIGITS[country.trim().toLowerCase() || 'au'];
  if (digitsByCountry.size < REMEMBERED_COUNTRY_CELLS) digitsByCountry.set(country, digits);
  return digits;
}

/**
 * Spreadsheets turn postcodes into numbers and drop leading zeros (Darwin's 0800 becomes 800).
 * All-digit postcodes shorter than the country's length get their zeros back; no country means Australia.
 */
export function normalisePostcode(postcode: string | null | undefined, country: string | null | undefined): string | null {
  if (!postcode) return null;
  if (postcode.length >= LONGEST_POSTCODE) return postcode;
  const digits = postcodeDigits(country ?? 'au');
  if (digits && /^\d+$/.test(postcode) && postcode.length < digits) return postcode.padStart(digits, '0');
  return postcode;
}

/** "12 Smith Street, Carlton VIC 3053" from the parts, when no location text was given. */
export function locationFromParts(parts: {
  address_line_1?: string | null;
  suburb?: string | null;
  state?: string | null;
  postcode?: string | null;
}): string {
  const place = [parts.suburb, parts.state, parts.postcode].filter(Boolean).join(' ');
  return [parts.address_line_1, place].filter(Boolean).join(', ');
}

export interface AddressParts {
  location: string;
  address_line_1?: string | null;
  suburb?: string | null;
  state?: string | null;
  postcode?: string | null;
  country?: string | null;
}

export interface StoredAddress {
  address_line_1: string | null;
  suburb: string | null;
  state: string | null;
  postcode: string | null;
  country: string | null;
  latitude: number;
  longitude: number;
  precision: string;
  timezone_name: string;
}

/**
 * What a located record stores: the parts as given when given, else the gazetteer's, plus the
 * position. The input's postcode is normalised already (normalisePostcode).
 */
export function storedAddress(input: AddressParts, located: GeoResult): StoredAddress {
  const givenParts = Boolean(input.suburb || input.state || input.postcode);
  return {
    address_line_1: input.address_line_1 ?? null,
    suburb: givenParts ? (input.suburb ?? null) : located.suburb,
    state: givenParts ? (input.state ?? null) : located.state,
    postcode: givenParts ? (input.postcode ?? null) : located.postcode,
    country: input.country ?? located.country,
    latitude: located.latitude,
    longitude: located.longitude,
    precision: located.precision,
    timezone_name: located.timezone_name,
  };
}
