/**
 * Reads a free-text address ("Unit 5/12 Smith St, Fitzroy VIC 3065, Australia"): sets aside the
 * unit, PO box and street, finds the country at the end, then per country the state, the
 * postcode (only where the address makes a number one) and the place, and matches them as parts.
 */
import { addressWords, spanKey, type AddressWords, type Word } from './address-words.ts';
import { GAZETTEER_COUNTRIES, type GazetteerCountry } from './countries.ts';
import type { GeoResult } from './geocoder.ts';
import { FULL_AGREEMENT, type AddressParts, type GazetteerLookups } from './address-reading.ts';
import { LONGEST_WORLD_COUNTRY_WORDS, readCountryKeyed } from './world-countries.ts';

/** What was read from a free-text address, and where it was placed. */
export interface LocationReading {
  result: GeoResult | null;
  /** English name of a country the gazetteer does not hold, named at the end ("France"). */
  foreign?: string;
  /** The parts the result was matched from (or, when none was placed, those of the first country tried). */
  parts?: AddressParts;
  /** Numbers shaped like a postcode that were not read as one: a street number, or a number amid other words. */
  notPostcodes: string[];
}

const LONGEST_PLACE_WORDS = 5;
const LONGEST_STATE_WORDS = 4;

export function readLocation(
  geocoder: GazetteerLookups,
  location: string,
  countryColumn: GazetteerCountry | undefined,
  stateHint: string,
): LocationReading {
  const read = addressWords(location, (key) => geocoder.isPlaceName(key));
  const { words } = read;
  const notPostcodes = new Set<string>();
  // "zzqx 2150 nowhere lane": a number that opens a street is its number, whatever its shape.
  for (const w of words) if (w.role === 'street' && /^\d{4,5}$/.test(w.text)) notPostcodes.add(w.text);
  const named = takeCountry(geocoder, words);
  if (named && 'foreign' in named && !countryColumn) return { result: null, foreign: named.foreign, notPostcodes: [] };
  let countries: readonly GazetteerCountry[] = GAZETTEER_COUNTRIES;
  let countryGiven = false;
  if (countryColumn) {
    // The country column wins; a different trailing "country" may be a state ("CA").
    if (named && (!('covered' in named) || named.covered !== countryColumn))
      for (const w of words) if (w.role === 'country') w.role = 'free';
    countries = [countryColumn];
    countryGiven = true;
  } else if (named && 'covered' in named) {
    const reading = bestOver(geocoder, read, [named.covered], true, stateHint, notPostcodes);
    if (reading.result) return { ...reading, notPostcodes: [...notPostcodes] };
    for (const w of words) if (w.role === 'country') w.role = 'free'; // "CA" may be California, not Canada
  }
  const reading = bestOver(geocoder, read, countries, countryGiven, stateHint, notPostcodes);
  return { ...reading, notPostcodes: [...notPostcodes] };
}

/** Each country's reading is matched; the one with the most agreeing parts wins, ties going to the earlier country (Australia first). */
function bestOver(
  geocoder: GazetteerLookups,
  { words, poBox, street }: AddressWords,
  countries: readonly GazetteerCountry[],
  countryGiven: boolean,
  stateHint: string,
  notPostcodes: Set<string>,
): { result: GeoResult | null; parts?: AddressParts } {
  let best: { result: GeoResult | null; parts?: AddressParts } = { result: null };
  let bestScore = -1;
  for (const country of countries) {
    // Outside Australia, without a country, a place needs its state or postcode (matchParts): without them the
    // place is looked for only to explain a failure, when no earlier country read any part.
    const placeAlone = countryGiven || country === 'AU' || best.parts === undefined;
    const parts = readParts(
      geocoder,
      words.map((w) => ({ ...w })),
      country,
      stateHint,
      notPostcodes,
      placeAlone,
    );
    if (!parts) continue;
    parts.poBox = poBox;
    parts.street = street;
    best.parts ??= parts;
    const result = geocoder.best([country], parts, countryGiven);
    if (!result) continue;
    const score = geocoder.agreement(country, parts, result);
    if (score > bestScore) {
      bestScore = score;
      best = { result, parts };
    }
    if (bestScore >= FULL_AGREEMENT) break; // a later country could only tie, and ties go to the earlier one
  }
  return best;
}

function readParts(
  geocoder: GazetteerLookups,
  words: Word[],
  country: GazetteerCountry,
  stateHint: string,
  notPostcodes: Set<string>,
  placeAlone: boolean,
): AddressParts | null {
  const state = stateHint !== '' ? stateHint : takeState(geocoder, words, country);
  const postcode = takePostcode(geocoder, words, country, notPostcodes);
  if (!placeAlone && state === '' && postcode === '') return null;
  const suburb = findPlace(geocoder, words, country, postcode, state);
  if (suburb === '' && postcode === '') return null;
  return { suburb, state, postcode };
}

/**
 * A country name at the very end of the address: one the gazetteer holds, or another one
 * (which stops the address being placed). The name of a covered country's state is not a
 * country there ("Atlanta, Georgia").
 */
function takeCountry(geocoder: GazetteerLookups, words: Word[]): { covered: GazetteerCountry } | { foreign: string } | undefined {
  const last = words[words.length - 1];
  if (!last) return undefined;
  for (let n = Math.min(LONGEST_WORLD_COUNTRY_WORDS, words.length); n >= 1; n--) {
    const tail = words.slice(words.length - n);
    if (tail.some((w) => w.segment !== last.segment || w.role !== 'free')) continue;
    const key = spanKey(tail);
    const country = readCountryKeyed(key);
    if (!country) continue;
    if ('foreign' in country && GAZETTEER_COUNTRIES.some((c) => geocoder.stateCodesKeyed(c, key).length > 0)) return undefined;
    for (const w of tail) w.role = 'country';
    return 'covered' in country ? country : { foreign: country.foreign.name };
  }
  return undefined;
}

const POSTCODE_WORD: Record<GazetteerCountry, RegExp> = {
  AU: /^\d{4}$/,
  US: /^\d{5}(-\d{4})?$/,
  IT: /^\d{5}$/,
  CA: /^[A-Z]\d[A-Z](\d[A-Z]\d)?$/i,
  GB: /^[A-Z]{1,2}\d[A-Z\d]?(\d[A-Z]{2})?$/i,
};
const INWARD_CODE: Partial<Record<GazetteerCountry, RegExp>> = { CA: /^\d[A-Z]\d$/i, GB: /^\d[A-Z]{2}$/i };

/**
 * The postcode: the last word (or outward + inward pair) shaped like the country's postcode that
 * the address makes one: at the end, right after the place or the state, alone in its part, or
 * (Italy) right before the comune. Any other number is a street or unit number, or junk.
 */
function takePostcode(geocoder: GazetteerLookups, words: Word[], country: GazetteerCountry, notPostcodes: Set<string>): string {
  const inward = INWARD_CODE[country];
  for (let i = words.length - 1; i >= 0; i--) {
    const word = words[i];
    if (!word || word.role !== 'free' || word.inState) continue;
    const previous = words[i - 1];
    let first = i;
    let code = '';
    if (
      inward &&
      previous &&
      previous.role === 'free' &&
      previous.segment === word.segment &&
      inward.test(word.text) &&
      POSTCODE_WORD[country].test(previous.text)
    ) {
      first = i - 1;
      code = previous.text + word.text;
    } else if (POSTCODE_WORD[country].test(word.text)) {
      code = word.text;
    } else continue;
    if (!postcodePlace(geocoder, words, first, i, country)) {
      notPostcodes.add(
        words
          .slice(first, i + 1)
          .map((w) => w.text)
          .join(' '),
      );
      continue;
    }
    for (const w of words.slice(first, i + 1)) w.postcode = true;
    return code;
  }
  return '';
}

/** Whether the words first..last stand where a postcode goes. */
function postcodePlace(geocoder: GazetteerLookups, words: Word[], first: number, last: number, country: GazetteerCountry): boolean {
  const segment = words[first]?.segment;
  const free = (w: Word | undefined): boolean => w !== undefined && w.role === 'free';
  if (!words.slice(last + 1).some((w) => free(w) && !w.inState)) return true; // at the end (before the state or country)
  const before = words[first - 1];
  const after = words[last + 1];
  const aloneInPart = before?.segment !== segment && after?.segment !== segment;
  if (aloneInPart) return true;
  if (before && before.segment === segment && free(before) && (before.inState || placeAt(geocoder, words, first - 1, -1, country)))
    return true;
  return country === 'IT' && after?.segment === segment && placeAt(geocoder, words, last + 1, 1, country);
}

/** Whether a run of up to LONGEST_PLACE_WORDS free words of one part, ending at `at` (step -1) or starting there (step 1), names a place. */
function placeAt(geocoder: GazetteerLookups, words: Word[], at: number, step: 1 | -1, country: GazetteerCountry): boolean {
  for (let n = 1; n <= LONGEST_PLACE_WORDS; n++) {
    const from = step === 1 ? at : at - n + 1;
    if (from < 0 || from + n > words.length) return false;
    const span = words.slice(from, from + n);
    if (span.some((w) => w.role !== 'free' || w.segment !== span[0]?.segment)) return false;
    if (geocoder.placesNamed(country, spanKey(span)).length > 0) return true;
  }
  return false;
}

/** The last run of words naming a state of the country. */
function takeState(geocoder: GazetteerLookups, words: Word[], country: GazetteerCountry): string {
  if (country === 'GB') return '';
  for (let end = words.length; end > 0; end--) {
    for (let n = Math.min(LONGEST_STATE_WORDS, end); n >= 1; n--) {
      const span = words.slice(end - n, end);
      if (span.some((w) => w.role !== 'free' || w.segment !== span[0]?.segment)) continue;
      if (geocoder.stateCodesKeyed(country, spanKey(span)).length > 0) {
        for (const w of span) w.inState = true;
        return span.map((w) => w.text).join(' ');
      }
    }
  }
  return '';
}

/**
 * The run of words that names a place: one that agrees with the postcode wins, then one in
 * the state (better if it is not the state's own words), then the one nearest the end, then
 * the longest. The unit, box, street, postcode and country are not read.
 */
function findPlace(geocoder: GazetteerLookups, words: Word[], country: GazetteerCountry, postcode: string, state: string): string {
  const g = geocoder.gazetteer;
  const states = state === '' ? undefined : geocoder.stateCodes(country, state);
  let best = '';
  let bestScore = -1;
  for (let end = words.length; end > 0; end--) {
    for (let n = 1; n <= Math.min(LONGEST_PLACE_WORDS, end); n++) {
      const span = words.slice(end - n, end);
      if (span.some((w) => w.role !== 'free' || w.postcode || w.segment !== span[0]?.segment)) break;
      if (/^\d/.test(span[0]?.text ?? '')) break;
      const places = geocoder.placesNamed(country, spanKey(span));
      if (places.length === 0) continue;
      const text = span.map((w) => w.text).join(' ');
      let score = end * 10 + n;
      if (span.some((w) => w.inState)) score -= 500;
      if (postcode !== '' && places.some((i) => g.postcode[i] === postcode || g.postcode[i] === postcode.slice(0, g.postcode[i]?.length)))
        score += 10000;
      if (states && places.some((i) => states.includes(g.state[i] ?? ''))) score += 1000;
      if (score > bestScore) {
        bestScore = score;
        best = text;
      }
    }
  }
  return best;
}
