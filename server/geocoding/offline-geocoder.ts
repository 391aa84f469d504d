import { describeGazetteer } from './about.ts';
import { addressWords } from './address-words.ts';
import { GAZETTEER_COUNTRIES, type GazetteerCountry } from './countries.ts';
import { loadGazetteer, type Gazetteer } from './gazetteer.ts';
import type { AddressInput, Geocoder, GeoPrecision, GeoResult } from './geocoder.ts';
import { howLocated, whyNotLocated } from './explain.ts';
import { readLocation, type LocationReading } from './location-parser.ts';
import { cellText, nameKey, normalizePostcode } from './normalize.ts';
import { deliveryPlace, isAustralianBoxPostcode } from './po-boxes.ts';
import type { GeocoderAbout } from './schemas.ts';
import { FULL_AGREEMENT, type AddressParts, type AddressReading, type GazetteerLookups } from './address-reading.ts';
import { readCountry } from './world-countries.ts';

type Cell = string | null | undefined;

/** Joins the cells of locate()'s memo key; a cell holding it is never remembered. */
const CELL_SEPARATOR = '\u0001';

/** A text cell (or none) without the separator: what the memo of locate() takes (a number or date cell is read each time). */
const isCell = (value: unknown): value is Cell =>
  value === null || value === undefined || (typeof value === 'string' && !value.includes(CELL_SEPARATOR));

/** A named place this close to the given postcode's place counts as agreeing with it (GB, CA, US, IT). */
const NEARBY_KM = 25;

export function createOfflineGeocoder(gazetteer: Gazetteer = loadGazetteer()): Geocoder {
  return new OfflineGeocoder(gazetteer);
}

let cached: OfflineGeocoder | undefined;

/** One geocoder per process (the server and each import worker process load their own), loaded on first use. */
export function loadGeocoder(): Geocoder {
  return loadOfflineGeocoder();
}

export function loadOfflineGeocoder(): OfflineGeocoder {
  cached ??= new OfflineGeocoder(loadGazetteer());
  return cached;
}

/** Distinct address parts remembered per geocoder (a few MB at most); the memory starts over when full. */
const MAX_REMEMBERED = 20_000;

export class OfflineGeocoder implements Geocoder, GazetteerLookups {
  readonly gazetteer: Gazetteer;
  private readonly answers = new Map<string, GeoResult | null>();
  private readonly readings = new Map<string, LocationReading>();
  /**
   * Answers by the address cells as given, before any reading (country, state, suburb and
   * postcode joined into one key: one lookup, 0.15 µs a row less than four nested maps at 10,000
   * suburbs). The answers are frozen and handed out as they are: a copy for each of an import's
   * rows was 137 bytes of garbage a row.
   */
  private readonly byCells = new Map<string, Readonly<GeoResult> | null>();
  private described: GeocoderAbout | undefined;

  constructor(gazetteer: Gazetteer) {
    this.gazetteer = gazetteer;
  }

  locate(address: AddressInput): Readonly<GeoResult> | null {
    const { country, state, suburb, postcode } = address;
    if (!isCell(country) || !isCell(state) || !isCell(suburb) || !isCell(postcode)) return this.read(address).result;
    const key = `${country ?? ''}${CELL_SEPARATOR}${state ?? ''}${CELL_SEPARATOR}${suburb ?? ''}${CELL_SEPARATOR}${postcode ?? ''}`;
    const known = this.byCells.get(key);
    if (known !== undefined) return known;
    const reading = this.read(address);
    // Read from the parts alone: unless a box-only postcode made the street line count, or the free-text location was read.
    if (reading.from === 'parts' && !isAustralianBoxPostcode(normalizePostcode('AU', reading.parts?.postcode ?? '', true))) {
      if (this.byCells.size >= MAX_REMEMBERED) this.byCells.clear();
      const answer = reading.result && Object.freeze(reading.result);
      this.byCells.set(key, answer);
      return answer;
    }
    return reading.result;
  }

  /** The whole reading behind locate(): what was taken for each part, and why nothing was placed. */
  read(address: AddressInput): AddressReading {
    const countryText = cellText(address.country);
    let country: GazetteerCountry | undefined;
    if (countryText !== '') {
      const named = readCountry(countryText);
      if (!named) return { result: null, from: 'parts', notPostcodes: [] };
      if ('foreign' in named) return { result: null, foreign: named.foreign.name, from: 'parts', notPostcodes: [] };
      country = named.covered;
    }
    const countries: readonly GazetteerCountry[] = country ? [country] : GAZETTEER_COUNTRIES;
    const parts: AddressParts = {
      suburb: cellText(address.suburb),
      state: cellText(address.state),
      postcode: cellText(address.postcode),
    };
    if (parts.suburb !== '' || parts.postcode !== '') {
      // The address line matters only for a box-only postcode: a PO box keeps it, a street gets the delivery one.
      const line = isAustralianBoxPostcode(normalizePostcode('AU', parts.postcode, true)) ? cellText(address.address_line_1) : '';
      if (line !== '') {
        const words = addressWords(line);
        parts.poBox = words.poBox;
        parts.street = words.street;
      }
      return { result: this.best(countries, parts, country !== undefined), from: 'parts', parts, notPostcodes: [] };
    }
    const location = cellText(address.location);
    if (location === '') return { result: null, from: 'location', notPostcodes: [] };
    const reading = this.readText(location, country, parts.state);
    return { ...reading, result: reading.result && { ...reading.result }, from: 'location' };
  }

  /** Appointment imports repeat the same location text: its reading is remembered like parts are. */
  private readText(location: string, country: GazetteerCountry | undefined, state: string): LocationReading {
    const key = `${country ?? ''}|${state}|${location}`;
    let reading = this.readings.get(key);
    if (reading === undefined) {
      reading = readLocation(this, location, country, state);
      if (this.readings.size >= MAX_REMEMBERED) this.readings.clear();
      this.readings.set(key, reading);
    }
    return reading;
  }

  about(): GeocoderAbout {
    this.described ??= describeGazetteer(this.gazetteer);
    return this.described;
  }

  whyNotLocated(address: AddressInput): string {
    return whyNotLocated(this, address);
  }

  howLocated(address: AddressInput, result: GeoResult): string {
    return howLocated(this, address, result);
  }

  /** The best match among the countries; ties go to the earlier country. Each caller gets its own result object. */
  best(countries: readonly GazetteerCountry[], parts: AddressParts, countryGiven: boolean): GeoResult | null {
    // Imports repeat the same suburbs many times: the answer for the same parts is remembered.
    const key = `${countries.length === 1 ? countries[0] : countries.join(',')}|${countryGiven ? 1 : 0}|${parts.poBox ? 1 : 0}${parts.street ? 1 : 0}|${parts.suburb}|${parts.state}|${parts.postcode}`;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = this.bestUncached(countries, parts, countryGiven);
      if (this.answers.size >= MAX_REMEMBERED) this.answers.clear();
      this.answers.set(key, answer);
    }
    return answer && { ...answer };
  }

  /** The country whose match agrees with most of the parts; ties go to the earlier country (Australia first). */
  private bestUncached(countries: readonly GazetteerCountry[], parts: AddressParts, countryGiven: boolean): GeoResult | null {
    let best: GeoResult | null = null;
    let bestScore = -1;
    for (const country of countries) {
      const result = this.matchParts(country, parts, countryGiven);
      if (!result) continue;
      const score = this.agreement(country, parts, result);
      if (score > bestScore) {
        best = result;
        bestScore = score;
      }
      if (bestScore >= FULL_AGREEMENT) break; // a later country could only tie, and ties go to the earlier one
    }
    return best;
  }

  /** How many of the given parts the result bears out: the postcode counts double (it is the most specific). */
  agreement(country: GazetteerCountry, parts: AddressParts, result: GeoResult): number {
    let score = 0;
    const postcode = normalizePostcode(country, parts.postcode, true);
    if (postcode !== '' && result.postcode === postcode) score += 2;
    if (parts.state !== '' && this.stateCodes(country, parts.state).includes(result.state)) score += 1;
    if (parts.suburb !== '' && result.precision !== 'postcode_only') score += 1;
    return score;
  }

  matchParts(country: GazetteerCountry, parts: AddressParts, countryGiven: boolean): GeoResult | null {
    const g = this.gazetteer;
    // A spreadsheet's numeric cell drops leading zeros; restore them only when the country is known.
    const postcode = normalizePostcode(country, parts.postcode, countryGiven || country === 'AU');
    const states = country === 'GB' || parts.state === '' ? undefined : this.stateCodes(country, parts.state);
    // Without a country, a place name alone is too weak outside Australia, the service's home.
    if (!countryGiven && country !== 'AU' && postcode === '' && !states) return null;
    const index = g.countries.get(country);
    if (!index) return null;
    const named = parts.suburb === '' ? EMPTY : (index.byName.get(nameKey(parts.suburb)) ?? EMPTY);
    const coded = postcode === '' ? EMPTY : (index.byPostcode.get(postcode) ?? EMPTY);
    const stateOk = (i: number): boolean => !states || states.includes(g.state[i] ?? '');
    const confident: GeoPrecision = country === 'AU' ? 'postcode' : 'city';
    const placeLevel: GeoPrecision = country === 'AU' ? 'place' : 'city';

    for (const i of named) {
      if (g.postcode[i] !== postcode || !stateOk(i)) continue;
      // A street address that names its suburb's box-only postcode gets the suburb's delivery postcode.
      if (country === 'AU' && parts.street && !parts.poBox && isAustralianBoxPostcode(postcode)) {
        const delivery = deliveryPlace(
          g,
          named.filter((j) => g.state[j] === g.state[i]),
        );
        if (!isAustralianBoxPostcode(g.postcode[delivery] ?? '')) return this.result(delivery, placeLevel);
      }
      return this.result(i, confident);
    }

    const codedInState = coded.filter(stateOk);
    if (country !== 'AU' && codedInState.length > 0) {
      for (const i of named) {
        if (!stateOk(i)) continue;
        for (const j of codedInState) {
          if (distanceKm(g, i, j) <= NEARBY_KM) return this.result(j, confident, g.name[i]);
        }
      }
    }

    if (named.length > 0) {
      let pool = named.filter(stateOk);
      if (!states && pool.length > 0) {
        const postcodeStates = new Set(coded.map((i) => g.state[i]));
        const inPostcodeState = pool.filter((i) => postcodeStates.has(g.state[i]));
        if (inPostcodeState.length > 0) pool = inPostcodeState;
        else if (country !== 'GB' && new Set(pool.map((i) => g.state[i])).size > 1) pool = EMPTY; // ambiguous
      }
      if (pool.length > 0)
        return this.result(country === 'AU' ? this.suburbPlace(pool, postcode, parts) : closestPostcode(g, pool, postcode), placeLevel);
      const samePostcode = named.find((i) => g.postcode[i] === postcode);
      if (samePostcode !== undefined) return this.result(samePostcode, placeLevel);
    }

    if (codedInState.length > 0) return this.postcodeOnly(codedInState);
    return null;
  }

  /**
   * Of an Australian suburb's places (one name, one state), the one to place the address at:
   * without a postcode, the delivery postcode (a PO box keeps the box postcode nearest the given one).
   */
  private suburbPlace(pool: number[], postcode: string, parts: AddressParts): number {
    const g = this.gazetteer;
    const states = new Set(pool.map((i) => g.state[i]));
    if (states.size > 1 || (parts.poBox && postcode !== '')) return closestPostcode(g, pool, postcode);
    return deliveryPlace(g, pool);
  }

  /** Whether any covered country has a place by this name key. */
  isPlaceName(key: string): boolean {
    for (const index of this.gazetteer.countries.values()) if (index.byName.has(key)) return true;
    return false;
  }

  /** Places of the country named so (nameKey of the name); empty when none. */
  placesNamed(country: GazetteerCountry, key: string): number[] {
    return this.gazetteer.countries.get(country)?.byName.get(key) ?? EMPTY;
  }

  /** State codes a state name or code stands for; empty when it names no state of the country. */
  stateCodes(country: GazetteerCountry, state: string): string[] {
    return this.stateCodesKeyed(country, nameKey(state));
  }

  /** stateCodes() for a name already turned into its key. */
  stateCodesKeyed(country: GazetteerCountry, key: string): string[] {
    return this.gazetteer.countries.get(country)?.stateCodes.get(key) ?? EMPTY_CODES;
  }

  private result(i: number, precision: GeoPrecision, name?: string): GeoResult {
    const g = this.gazetteer;
    return {
      latitude: g.latitude[i] ?? 0,
      longitude: g.longitude[i] ?? 0,
      precision,
      suburb: name ?? g.name[i] ?? '',
      state: g.state[i] ?? '',
      postcode: g.postcode[i] ?? '',
      country: g.country[i] ?? '',
      timezone_name: g.zones[g.zone[i] ?? 0] ?? '',
    };
  }

  /** The middle of the postcode's places; named after its first place. */
  private postcodeOnly(places: number[]): GeoResult {
    const g = this.gazetteer;
    const first = places[0] ?? 0;
    let latitude = 0;
    let longitude = 0;
    for (const i of places) {
      latitude += g.latitude[i] ?? 0;
      longitude += g.longitude[i] ?? 0;
    }
    const result = this.result(first, 'postcode_only');
    result.latitude = Math.round((latitude / places.length) * 1e4) / 1e4;
    result.longitude = Math.round((longitude / places.length) * 1e4) / 1e4;
    return result;
  }
}

const EMPTY: number[] = [];
const EMPTY_CODES: string[] = [];

/**
 * Of several places with the same name, the one whose postcode is nearest the given one; without
 * a postcode, the one nearest their middle (a city with many postcodes is placed near its centre).
 */
function closestPostcode(g: Gazetteer, pool: number[], postcode: string): number {
  let best = pool[0] ?? 0;
  const wanted = Number.parseInt(postcode, 10);
  if (Number.isNaN(wanted)) return pool.length > 2 ? nearestMiddle(g, pool) : best;
  let bestGap = Infinity;
  for (const i of pool) {
    const gap = Math.abs(Number.parseInt(g.postcode[i] ?? '', 10) - wanted);
    if (gap < bestGap) {
      bestGap = gap;
      best = i;
    }
  }
  return best;
}

function nearestMiddle(g: Gazetteer, pool: number[]): number {
  let latitude = 0;
  let longitude = 0;
  for (const i of pool) {
    latitude += g.latitude[i] ?? 0;
    longitude += g.longitude[i] ?? 0;
  }
  latitude /= pool.length;
  longitude /= pool.length;
  let best = pool[0] ?? 0;
  let bestGap = Infinity;
  for (const i of pool) {
    const gap = ((g.latitude[i] ?? 0) - latitude) ** 2 + ((g.longitude[i] ?? 0) - longitude) ** 2;
    if (gap < bestGap) {
      bestGap = gap;
      best = i;
    }
  }
  return best;
}

function distanceKm(g: Gazetteer, a: number, b: number): number {
  const rad = Math.PI / 180;
  const lat1 = (g.latitude[a] ?? 0) * rad;
  const lat2 = (g.latitude[b] ?? 0) * rad;
  const dLat = lat2 - lat1;
  const dLon = ((g.longitude[b] ?? 0) - (g.longitude[a] ?? 0)) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin(dLon / 2) ** 2;
  return 12742 * Math.asin(Math.sqrt(h));
}
