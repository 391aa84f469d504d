import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { countryCode, type GazetteerCountry } from './countries.ts';
import { GAZETTEER_FILE } from './gazetteer-format.ts';
import { nameKey } from './normalize.ts';

/**
 * Places by a key. Nine keys in ten name one place: that place is kept as a number, not a list of
 * one (a list costs about 56 bytes: 6 MB over the gazetteer's 130,000 keys).
 */
export class PlaceIndex {
  private readonly places = new Map<string, number | number[]>();

  /** The key's places in the order they were added (a new array for a key of one place: the caller may keep it). */
  get(key: string): number[] | undefined {
    const found = this.places.get(key);
    return typeof found === 'number' ? [found] : found;
  }

  has(key: string): boolean {
    return this.places.has(key);
  }

  get size(): number {
    return this.places.size;
  }

  /** Places of all keys together, a place counted once a key. */
  get placeCount(): number {
    let count = 0;
    for (const found of this.places.values()) count += typeof found === 'number' ? 1 : found.length;
    return count;
  }

  /** Adds the place to the key's list; `once`: unless the list has it already. */
  add(key: string, place: number, once = false): void {
    const found = this.places.get(key);
    if (found === undefined) this.places.set(key, place);
    else if (typeof found === 'number') {
      if (!(once && found === place)) this.places.set(key, [found, place]);
    } else if (!(once && found.includes(place))) found.push(place);
  }
}

/** Indexes of one country's places. */
export interface CountryIndex {
  /** Postcode as the gazetteer writes it -> places, in name order. */
  byPostcode: PlaceIndex;
  /** nameKey(place name or alias) -> places, in postcode order. */
  byName: PlaceIndex;
  /** nameKey(state code or name) -> the state codes it stands for. */
  stateCodes: Map<string, string[]>;
}

/** The loaded gazetteer: places as parallel arrays, indexed per country. */
export interface Gazetteer {
  size: number;
  country: GazetteerCountry[];
  postcode: string[];
  name: string[];
  state: string[];
  latitude: Float64Array;
  longitude: Float64Array;
  zone: Uint16Array;
  zones: string[];
  countries: Map<GazetteerCountry, CountryIndex>;
}

export function loadGazetteer(file: string = GAZETTEER_FILE): Gazetteer {
  return parseGazetteer(gunzipSync(readFileSync(file)).toString('utf8'));
}

export function parseGazetteer(text: string): Gazetteer {
  const capacity = countLines(text);
  const g: Gazetteer = {
    size: 0,
    country: [],
    postcode: [],
    name: [],
    state: [],
    latitude: new Float64Array(capacity),
    longitude: new Float64Array(capacity),
    zone: new Uint16Array(capacity),
    zones: [],
    countries: new Map(),
  };
  let country: GazetteerCountry | undefined;
  let index: CountryIndex | undefined;
  // A few hundred distinct states for 100,000 places: one string each (3 MB of copies otherwise).
  const stateNames = new Map<string, string>();
  // Place lines are read field by field with indexOf: splitting 100,000 lines into arrays
  // doubles the load time in garbage collection.
  let at = 0;
  while (at < text.length) {
    let eol = text.indexOf('\n', at);
    if (eol < 0) eol = text.length;
    const lineStart = at;
    at = eol + 1;
    if (eol === lineStart) continue;
    const marker = text.charCodeAt(lineStart);
    if (marker === HASH) continue;
    if (text.charCodeAt(lineStart + 1) === TAB && (marker === LETTER_C || marker === LETTER_Z || marker === LETTER_S)) {
      const f = text.slice(lineStart, eol).split('\t');
      if (marker === LETTER_C) {
        country = countryCode(f[1] ?? '');
        index = country ? countryIndex(g, country) : undefined;
      } else if (marker === LETTER_Z) {
        g.zones = f.slice(1);
      } else {
        const cc = countryCode(f[1] ?? '');
        if (!cc) continue;
        const states = countryIndex(g, cc).stateCodes;
        const code = f[2] ?? '';
        for (const name of f.slice(2)) addTo(states, nameKey(name), code);
      }
      continue;
    }
    const t1 = text.indexOf('\t', lineStart);
    const t2 = text.indexOf('\t', t1 + 1);
    const t3 = text.indexOf('\t', t2 + 1);
    const t4 = text.indexOf('\t', t3 + 1);
    const t5 = text.indexOf('\t', t4 + 1);
    if (!country || !index || t1 < 0 || t5 < 0 || t5 > eol)
      throw new Error(`Malformed gazetteer line: ${text.slice(lineStart, Math.min(eol, lineStart + 80))}`);
    let t6 = text.indexOf('\t', t5 + 1);
    if (t6 < 0 || t6 > eol) t6 = eol;
    const i = g.size++;
    const postcode = text.slice(lineStart, t1);
    const name = text.slice(t1 + 1, t2);
    g.country.push(country);
    g.postcode.push(postcode);
    g.name.push(name);
    const state = text.slice(t2 + 1, t3);
    const shared = stateNames.get(state);
    if (shared === undefined) stateNames.set(state, state);
    g.state.push(shared ?? state);
    g.latitude[i] = decimal(text, t3 + 1, t4);
    g.longitude[i] = decimal(text, t4 + 1, t5);
    g.zone[i] = decimal(text, t5 + 1, t6);
    // Each place line is read once, so its first keys cannot repeat the place; an alias may.
    index.byPostcode.add(postcode, i);
    if (t6 === eol) {
      index.byName.add(name.toLowerCase(), i);
      continue;
    }
    let t7 = text.indexOf('\t', t6 + 1);
    if (t7 < 0 || t7 > eol) t7 = eol;
    index.byName.add(t7 > t6 + 1 ? text.slice(t6 + 1, t7) : name.toLowerCase(), i);
    if (t7 < eol) for (const alias of text.slice(t7 + 1, eol).split('|')) index.byName.add(alias, i, true);
  }
  return g;
}

const HASH = 35;
const TAB = 9;
const LETTER_C = 67;
const LETTER_S = 83;
const LETTER_Z = 90;

function countLines(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** A decimal number such as -37.8004 written by the build script, read without a substring. */
function decimal(text: string, from: number, to: number): number {
  let at = from;
  let sign = 1;
  if (text.charCodeAt(at) === 45) {
    sign = -1;
    at++;
  }
  let whole = 0;
  let fraction = 0;
  let scale = 1;
  let inFraction = false;
  for (; at < to; at++) {
    const c = text.charCodeAt(at);
    if (c === 46) inFraction = true;
    else if (c >= 48 && c <= 57) {
      if (inFraction) {
        fraction = fraction * 10 + (c - 48);
        scale *= 10;
      } else whole = whole * 10 + (c - 48);
    } else return Number(text.slice(from, to));
  }
  // One division of exact integers rounds like Number("-37.8004") does.
  return (sign * (whole * scale + fraction)) / scale;
}

function countryIndex(g: Gazetteer, country: GazetteerCountry): CountryIndex {
  let index = g.countries.get(country);
  if (!index) {
    index = { byPostcode: new PlaceIndex(), byName: new PlaceIndex(), stateCodes: new Map() };
    g.countries.set(country, index);
  }
  return index;
}

function addTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}
