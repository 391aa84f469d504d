import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { countryCode, type GazetteerCountry } from './countries.ts';
import { GAZETTEER_FILE } from './gazetteer-format.ts';
import { nameKey } from './normalize.ts';

/** The loaded gazetteer: places as parallel arrays, indexed by postcode and by name. */
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
  /** Key: country + postcode, e.g. "AU0800". Places in postcode, then name order. */
  byPostcode: Map<string, number[]>;
  /** Key: country + " " + nameKey(place or alias). Places in postcode order. */
  byName: Map<string, number[]>;
  /** Key: country + " " + nameKey(state code or name): the state codes it stands for. */
  stateCodes: Map<string, string[]>;
}

export function loadGazetteer(file: string = GAZETTEER_FILE): Gazetteer {
  return parseGazetteer(gunzipSync(readFileSync(file)).toString('utf8'));
}

export function parseGazetteer(text: string): Gazetteer {
  const lines = text.split('\n');
  const capacity = lines.length;
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
    byPostcode: new Map(),
    byName: new Map(),
    stateCodes: new Map(),
  };
  let country: GazetteerCountry | undefined;
  for (const line of lines) {
    if (line === '' || line.startsWith('#')) continue;
    const f = line.split('\t');
    const first = f[0] ?? '';
    if (f.length === 2 && first === 'C') {
      country = countryCode(f[1] ?? '');
      continue;
    }
    if (first === 'Z') {
      g.zones = f.slice(1);
      continue;
    }
    if (first === 'S') {
      const cc = f[1] ?? '';
      const code = f[2] ?? '';
      for (const name of f.slice(2)) addTo(g.stateCodes, `${cc} ${nameKey(name)}`, code);
      continue;
    }
    if (!country || f.length < 6) throw new Error(`Malformed gazetteer line: ${line.slice(0, 80)}`);
    const i = g.size++;
    const name = f[1] ?? '';
    g.country.push(country);
    g.postcode.push(first);
    g.name.push(name);
    g.state.push(f[2] ?? '');
    g.latitude[i] = Number(f[3]);
    g.longitude[i] = Number(f[4]);
    g.zone[i] = Number(f[5]);
    addTo(g.byPostcode, country + first, i);
    addTo(g.byName, `${country} ${nameKey(name)}`, i);
    const aliases = f[6];
    if (aliases) for (const alias of aliases.split('|')) addTo(g.byName, `${country} ${nameKey(alias)}`, i);
  }
  return g;
}

function addTo<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}
