import { nameKey } from './normalize.ts';

/** Countries the offline gazetteer covers, in the order they are tried when a row names none. */
export const GAZETTEER_COUNTRIES = ['AU', 'US', 'GB', 'CA', 'IT'] as const;
export type GazetteerCountry = (typeof GAZETTEER_COUNTRIES)[number];

/** How the app names each covered country to people. */
export const COUNTRY_DISPLAY_NAMES: Record<GazetteerCountry, string> = {
  AU: 'Australia',
  US: 'United States',
  GB: 'United Kingdom',
  CA: 'Canada',
  IT: 'Italy',
};

const COUNTRY_NAMES: Record<GazetteerCountry, string[]> = {
  AU: ['AU', 'AUS', 'Australia', 'Commonwealth of Australia'],
  US: ['US', 'USA', 'United States', 'United States of America', 'U.S.A.', 'U.S.', 'America'],
  GB: ['GB', 'GBR', 'UK', 'U.K.', 'United Kingdom', 'Great Britain', 'Britain', 'England', 'Scotland', 'Wales', 'Northern Ireland'],
  CA: ['CA', 'CAN', 'Canada'],
  IT: ['IT', 'ITA', 'Italy', 'Italia'],
};

const COUNTRY_BY_KEY = new Map<string, GazetteerCountry>();
for (const code of GAZETTEER_COUNTRIES) {
  for (const name of COUNTRY_NAMES[code]) COUNTRY_BY_KEY.set(nameKey(name), code);
}

/** The ISO code for a country name or code; undefined when it is not one we know. */
export function countryCode(text: string): GazetteerCountry | undefined {
  return COUNTRY_BY_KEY.get(nameKey(text));
}

/** countryCode() for a name already turned into its key. */
export function countryCodeKeyed(key: string): GazetteerCountry | undefined {
  return COUNTRY_BY_KEY.get(key);
}

/**
 * State and province names the GeoNames files spell differently from everyday use, or
 * abbreviations people write; the files' own names and codes are always accepted too.
 */
export const EXTRA_STATE_NAMES: Record<string, Record<string, string[]>> = {
  AU: {
    ACT: ['Australian Capital Territory', 'A.C.T.', 'Canberra'],
    NSW: ['N.S.W.'],
    NT: ['N.T.', 'Northern Territory'],
    QLD: ['Qld', 'Queensland'],
    SA: ['S.A.'],
    TAS: ['Tas', 'Tasmania'],
    VIC: ['Vic', 'Victoria'],
    WA: ['W.A.'],
  },
  CA: {
    NL: ['Newfoundland', 'Labrador', 'Newfoundland & Labrador', 'NF', 'NFLD'],
    NT: ['Northwest Territories', 'NWT'],
    NU: ['Nunavut'],
    PE: ['PEI', 'P.E.I.'],
    QC: ['Québec', 'PQ'],
    YT: ['Yukon Territory', 'YK'],
  },
  US: {
    DC: ['Washington DC', 'Washington D.C.'],
  },
};
