/**
 * Names of the world's countries, from the ICU data built into Node (Intl.DisplayNames), so an
 * address ending in a country the gazetteer does not hold ("..., Paris, France") is recognised
 * as foreign instead of being placed in a covered country that shares a place name.
 */
import { countryCodeKeyed, GAZETTEER_COUNTRIES, type GazetteerCountry } from './countries.ts';
import { nameKey } from './normalize.ts';

/** English first: the name the app quotes back; then the languages addresses are often written in. */
const LOCALES = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt'];
/** ICU region codes that are not countries (EU, UN, pseudo-locales, "Unknown Region") or are retired aliases of current ones. */
const NOT_COUNTRIES = new Set([
  'EU',
  'EZ',
  'UN',
  'QO',
  'XA',
  'XB',
  'ZZ',
  'AN',
  'BU',
  'CS',
  'DD',
  'DY',
  'FX',
  'HV',
  'NH',
  'RH',
  'SU',
  'TP',
  'VD',
  'YD',
  'YU',
  'ZR',
]);
const COVERED = new Set<string>(GAZETTEER_COUNTRIES);

export interface WorldCountry {
  code: string;
  /** English name, e.g. "France". */
  name: string;
}

let byKey: Map<string, WorldCountry> | undefined;

/** A country column or a country at the end of an address: one the gazetteer holds, one it does not, or no country at all. */
export type CountryReading = { covered: GazetteerCountry } | { foreign: WorldCountry } | undefined;

/** The country a name stands for (in any of LOCALES; two-letter codes only for covered countries: "WA", "SA" and "IN" are states). */
export function readCountry(text: string): CountryReading {
  return readCountryKeyed(nameKey(text));
}

/** readCountry() for a name already turned into its key. */
export function readCountryKeyed(key: string): CountryReading {
  const code = countryCodeKeyed(key);
  if (code) return { covered: code };
  byKey ??= buildNames();
  const world = byKey.get(key);
  if (!world) return undefined;
  return COVERED.has(world.code) ? { covered: world.code as GazetteerCountry } : { foreign: world };
}

/** Longest country name in words that readCountry() knows ("South Georgia and South Sandwich Islands"). */
export const LONGEST_WORLD_COUNTRY_WORDS = 7;

function buildNames(): Map<string, WorldCountry> {
  const names = new Map<string, WorldCountry>();
  const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const displays = LOCALES.map((locale) => new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' }));
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_COUNTRIES.has(code)) continue;
      const name = english.of(code);
      if (!name) continue;
      const country: WorldCountry = { code, name };
      for (const display of displays) {
        const local = display.of(code);
        if (!local) continue;
        for (const variant of [local, local.replace(/&/g, 'and'), local.replace(/\s*\(.*\)$/, ''), local.replace(/ SAR China$/, '')]) {
          const key = nameKey(variant);
          if (key.length >= 4 && !names.has(key)) names.set(key, country);
        }
      }
    }
  }
  return names;
}
