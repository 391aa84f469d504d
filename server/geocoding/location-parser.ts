/**
 * Reads a free-text address ("12 Smith St, Fitzroy VIC 3065, Australia"): finds the country,
 * the postcode, the state and the place name among its words, then matches them like parts.
 */
import { countryCode, LONGEST_COUNTRY_NAME_WORDS, type GazetteerCountry } from './countries.ts';
import type { GeoResult } from './geocoder.ts';
import type { AddressParts, OfflineGeocoder } from './offline-geocoder.ts';
import { nameKey } from './normalize.ts';

interface Word {
  text: string;
  segment: number;
  /** Part of the postcode or the country. */
  used: boolean;
  /** Part of the state (which may also be the place's name: "Firenze", "New York"). */
  inState: boolean;
}

const LONGEST_PLACE_WORDS = 5;
const LONGEST_STATE_WORDS = 4;

export function parseLocation(
  geocoder: OfflineGeocoder,
  location: string,
  countries: readonly GazetteerCountry[],
  countryGiven: boolean,
  stateHint: string,
): GeoResult | null {
  const words = splitWords(location);
  if (words.length === 0) return null;
  const named = takeCountry(words);
  if (countryGiven) {
    // The country column wins; a different trailing "country" may be a state ("CA").
    if (named && named !== countries[0]) for (const word of words) word.used = false;
    return bestOver(geocoder, words, countries, true, stateHint);
  }
  if (named) {
    const found = bestOver(geocoder, words, [named], true, stateHint);
    if (found) return found;
    for (const word of words) word.used = false; // "CA" may be California, not Canada
  }
  return bestOver(geocoder, words, countries, false, stateHint);
}

function bestOver(
  geocoder: OfflineGeocoder,
  words: Word[],
  countries: readonly GazetteerCountry[],
  countryGiven: boolean,
  stateHint: string,
): GeoResult | null {
  let best: GeoResult | null = null;
  for (const country of countries) {
    const parts = readParts(geocoder, words.map((w) => ({ ...w })), country, stateHint);
    if (!parts) continue;
    const result = geocoder.best([country], parts, countryGiven);
    if (result && (!best || rank(result) > rank(best))) best = result;
  }
  return best;
}

function rank(result: GeoResult): number {
  return { postcode: 4, city: 3, place: 2, postcode_only: 1 }[result.precision];
}

function readParts(geocoder: OfflineGeocoder, words: Word[], country: GazetteerCountry, stateHint: string): AddressParts | null {
  const postcode = takePostcode(words, country);
  const state = stateHint !== '' ? stateHint : takeState(geocoder, words, country);
  const suburb = findPlace(geocoder, words, country, postcode, state);
  if (suburb === '' && postcode === '') return null;
  return { suburb, state, postcode };
}

function splitWords(location: string): Word[] {
  const words: Word[] = [];
  location.split(/[,;\n\r]+/).forEach((segment, index) => {
    for (const text of segment.split(/\s+/)) if (text !== '') words.push({ text, segment: index, used: false, inState: false });
  });
  return words;
}

/** A country name at the very end of the address. */
function takeCountry(words: Word[]): GazetteerCountry | undefined {
  for (let n = Math.min(LONGEST_COUNTRY_NAME_WORDS, words.length); n >= 1; n--) {
    const tail = words.slice(words.length - n);
    if (tail.some((w) => w.segment !== tail[0]?.segment)) continue;
    const code = countryCode(tail.map((w) => w.text).join(' '));
    if (code) {
      for (const w of tail) w.used = true;
      return code;
    }
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

/** The last word (or outward + inward pair) shaped like the country's postcode. */
function takePostcode(words: Word[], country: GazetteerCountry): string {
  const inward = INWARD_CODE[country];
  for (let i = words.length - 1; i >= 0; i--) {
    const word = words[i];
    if (!word || word.used) continue;
    const previous = words[i - 1];
    if (inward && previous && !previous.used && inward.test(word.text) && POSTCODE_WORD[country].test(previous.text)) {
      word.used = true;
      previous.used = true;
      return previous.text + word.text;
    }
    // "1234 Smith St": a street number opens its part of an Australian or US address.
    const streetNumber = (country === 'AU' || country === 'US') && words[i - 1]?.segment !== word.segment && words[i + 1]?.segment === word.segment;
    if (!streetNumber && POSTCODE_WORD[country].test(word.text.replace(/[.]$/, ''))) {
      word.used = true;
      return word.text;
    }
  }
  return '';
}

/** The last run of words naming a state of the country. */
function takeState(geocoder: OfflineGeocoder, words: Word[], country: GazetteerCountry): string {
  if (country === 'GB') return '';
  for (let end = words.length; end > 0; end--) {
    for (let n = Math.min(LONGEST_STATE_WORDS, end); n >= 1; n--) {
      const span = words.slice(end - n, end);
      if (span.some((w) => w.used || w.segment !== span[0]?.segment)) continue;
      const text = span.map((w) => w.text).join(' ');
      if (geocoder.stateCodes(country, text).length > 0) {
        for (const w of span) w.inState = true;
        return text;
      }
    }
  }
  return '';
}

/**
 * The run of words that names a place: one that agrees with the postcode wins, then one in
 * the state (better if it is not the state's own words), then the one nearest the end, then
 * the longest.
 */
function findPlace(geocoder: OfflineGeocoder, words: Word[], country: GazetteerCountry, postcode: string, state: string): string {
  const g = geocoder.gazetteer;
  const states = state === '' ? undefined : geocoder.stateCodes(country, state);
  let best = '';
  let bestScore = -1;
  for (let end = words.length; end > 0; end--) {
    for (let n = 1; n <= Math.min(LONGEST_PLACE_WORDS, end); n++) {
      const span = words.slice(end - n, end);
      if (span.some((w) => w.used || w.segment !== span[0]?.segment)) break;
      if (/^\d/.test(span[0]?.text ?? '')) break;
      const text = span.map((w) => w.text).join(' ');
      const places = geocoder.placesNamed(country, nameKey(text));
      if (places.length === 0) continue;
      let score = end * 10 + n;
      if (span.some((w) => w.inState)) score -= 500;
      if (postcode !== '' && places.some((i) => g.postcode[i] === postcode || g.postcode[i] === postcode.slice(0, g.postcode[i]?.length))) score += 10000;
      if (states && places.some((i) => states.includes(g.state[i] ?? ''))) score += 1000;
      if (score > bestScore) {
        bestScore = score;
        best = text;
      }
    }
  }
  return best;
}
