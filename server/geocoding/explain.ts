/**
 * Why the offline geocoder could not locate an address, in words a field admin can act on.
 * It states what the gazetteer has for each part; it does not decide anything locate() does not.
 */
import { COUNTRY_DISPLAY_NAMES, countryCode, GAZETTEER_COUNTRIES, type GazetteerCountry } from './countries.ts';
import type { AddressInput } from './geocoder.ts';
import { cellText, nameKey, normalizePostcode } from './normalize.ts';
import type { OfflineGeocoder } from './offline-geocoder.ts';

const MOST_LISTED = 4;
const FREE_TEXT_EXAMPLE = 'Write it as street, suburb, state, postcode and country, e.g. "12 Smith St, Fitzroy VIC 3065, Australia".';

export function whyNotLocated(geocoder: OfflineGeocoder, address: AddressInput): string {
  const countryText = cellText(address.country);
  const code = countryText === '' ? undefined : countryCode(countryText);
  if (countryText !== '' && !code) return `"${countryText}" is not a country the gazetteer covers: it has places in ${coverage()} only.`;
  const countries: readonly GazetteerCountry[] = code ? [code] : GAZETTEER_COUNTRIES;
  const suburb = cellText(address.suburb);
  const state = cellText(address.state);
  const postcode = cellText(address.postcode);
  if (suburb !== '' || postcode !== '') return partsReason(geocoder, countries, Boolean(code), suburb, state, postcode);
  const location = cellText(address.location);
  if (location === '') return 'There is no address: give a location, or a suburb or postcode.';
  const where = code ? ` in ${COUNTRY_DISPLAY_NAMES[code]}` : '';
  const alone = code ? '' : ' (without a country, a place name alone is not enough)';
  return `No place${where} was recognised in "${location}" together with its postcode or state${alone}. ${FREE_TEXT_EXAMPLE}`;
}

function coverage(): string {
  const names = GAZETTEER_COUNTRIES.map((c) => COUNTRY_DISPLAY_NAMES[c]);
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

interface Found {
  country: GazetteerCountry;
  /** Places with the suburb's name. */
  named: number[];
  /** Places with the postcode. */
  coded: number[];
  postcode: string;
  /** State codes the state text stands for; undefined when no state was given (or GB, where it is not read). */
  states: string[] | undefined;
}

function partsReason(geocoder: OfflineGeocoder, countries: readonly GazetteerCountry[], countryGiven: boolean, suburb: string, state: string, postcode: string): string {
  const g = geocoder.gazetteer;
  const found: Found[] = countries.map((country) => {
    const normal = normalizePostcode(country, postcode, countryGiven || country === 'AU');
    return {
      country,
      named: suburb === '' ? [] : geocoder.placesNamed(country, nameKey(suburb)),
      coded: normal === '' ? [] : (g.countries.get(country)?.byPostcode.get(normal) ?? []),
      postcode: normal,
      states: state === '' || country === 'GB' ? undefined : geocoder.stateCodes(country, state),
    };
  });
  const where = countryGiven && countries[0] ? ` for ${COUNTRY_DISPLAY_NAMES[countries[0]]}` : '';
  const anyNamed = found.some((f) => f.named.length > 0);
  const anyCoded = found.some((f) => f.coded.length > 0);
  const stateKnown = found.some((f) => f.states && f.states.length > 0);

  if (state !== '' && !stateKnown && countries.some((c) => c !== 'GB')) {
    return `"${state}" is not a state or province the gazetteer knows${where}; use its name or usual abbreviation (e.g. VIC or Victoria).`;
  }
  if (!countryGiven && found.every((f) => f.postcode === '') && !stateKnown) {
    if (postcode !== '') return `"${postcode}" is not a postcode of any country the gazetteer covers, and without a country a place name alone is not enough: correct the postcode, or add the state or the country.`;
    return 'Without a country, a place name alone is not enough (many countries share place names): add the postcode, the state or the country.';
  }
  if (suburb !== '' && postcode !== '' && !anyNamed && !anyCoded) return `Neither the place "${suburb}" nor the postcode "${postcode}" is in the gazetteer${where}.`;
  if (suburb === '' && !anyCoded) return `The postcode "${postcode}" is not in the gazetteer${where}.`;
  if (postcode === '' && !anyNamed) return `No place called "${suburb}" is in the gazetteer${where}.`;
  const several = countries.length > 1;
  const stateOf = (f: Found, i: number) => `${g.state[i] ?? ''}${several ? ` (${COUNTRY_DISPLAY_NAMES[f.country]})` : ''}`;
  if (postcode === '' && state === '') {
    const states = [...new Set(found.flatMap((f) => f.named.map((i) => stateOf(f, i))))];
    if (states.length > 1) return `"${suburb}" is a place in several states (${listed(states)}): add the state or the postcode.`;
  }
  const facts: string[] = [];
  if (suburb !== '') {
    const places = found.flatMap((f) => f.named.map((i) => `${stateOf(f, i)} ${g.postcode[i] ?? ''}`.trim()));
    facts.push(places.length > 0 ? `"${suburb}" is in ${listed([...new Set(places)])}` : `no place is called "${suburb}"`);
  }
  if (postcode !== '') {
    const places = found.flatMap((f) => f.coded.map((i) => `${g.name[i] ?? ''} (${stateOf(f, i)})`));
    facts.push(places.length > 0 ? `postcode ${postcode} is ${listed([...new Set(places)])}` : `there is no postcode "${postcode}"`);
  }
  if (state !== '' && stateKnown) facts.push(`the state given is ${state}`);
  return `The parts do not agree in the gazetteer${where}: ${facts.join('; ')}. Check the suburb, state and postcode against each other.`;
}

function listed(items: string[]): string {
  if (items.length <= MOST_LISTED + 1) return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}` : (items[0] ?? '');
  return `${items.slice(0, MOST_LISTED).join(', ')} and ${items.length - MOST_LISTED} more`;
}
