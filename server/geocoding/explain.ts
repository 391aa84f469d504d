/**
 * Why the offline geocoder could not locate an address, in words a field admin can act on.
 * It states what the gazetteer has for each part; it does not decide anything locate() does not.
 */
import { COUNTRY_DISPLAY_NAMES, GAZETTEER_COUNTRIES, type GazetteerCountry } from './countries.ts';
import type { AddressInput, GeoResult } from './geocoder.ts';
import { cellText, nameKey, normalizePostcode } from './normalize.ts';
import type { AddressReading, GazetteerLookups } from './address-reading.ts';
import { isAustralianBoxPostcode } from './po-boxes.ts';
import { readCountry } from './world-countries.ts';

const MOST_LISTED = 4;
const FREE_TEXT_EXAMPLE = 'Write it as street, suburb, state, postcode and country, e.g. "12 Smith St, Fitzroy VIC 3065, Australia".';

export function whyNotLocated(geocoder: GazetteerLookups, address: AddressInput): string {
  const reading = geocoder.read(address);
  if (reading.foreign) return `"${reading.foreign}" is not a country the gazetteer covers: it has places in ${coverage()} only.`;
  const countryText = cellText(address.country);
  const named = countryText === '' ? undefined : readCountry(countryText);
  if (countryText !== '' && !named) return `"${countryText}" is not a country the gazetteer covers: it has places in ${coverage()} only.`;
  const code = named && 'covered' in named ? named.covered : undefined;
  const countries: readonly GazetteerCountry[] = code ? [code] : GAZETTEER_COUNTRIES;
  if (reading.from === 'parts') {
    return partsReason(geocoder, countries, Boolean(code), cellText(address.suburb), cellText(address.state), cellText(address.postcode));
  }
  const location = cellText(address.location);
  if (location === '') return 'There is no address: give a location, or a suburb or postcode.';
  const parts = reading.parts;
  if (parts && parts.suburb !== '')
    return partsReason(geocoder, countries, Boolean(code), parts.suburb, parts.state, parts.postcode) + notPostcodes(reading);
  const where = code ? ` in ${COUNTRY_DISPLAY_NAMES[code]}` : '';
  const postcode = parts && parts.postcode !== '' ? ` The postcode "${parts.postcode}" is not in the gazetteer${where}.` : '';
  return `No place was recognised in "${location}"${where} together with its postcode or state.${postcode}${notPostcodes(reading)} ${FREE_TEXT_EXAMPLE}`;
}

/** Numbers that looked like a postcode but stood where none goes ("asdf 4000 qwerty"). */
function notPostcodes(reading: AddressReading): string {
  const numbers = reading.notPostcodes;
  if (numbers.length === 0) return '';
  const quoted = listed(numbers.map((n) => `"${n}"`));
  return ` ${quoted} ${numbers.length > 1 ? 'were' : 'was'} not read as a postcode: a postcode comes after the suburb or state, or at the end.`;
}

/**
 * For an address that was located, which part won when the parts disagreed, or which postcode
 * was chosen when none (or a PO-box one) was given; '' when the parts simply agree.
 */
export function howLocated(geocoder: GazetteerLookups, address: AddressInput, result: GeoResult): string {
  const reading = geocoder.read(address);
  const parts = reading.parts;
  if (!parts) return '';
  const country = result.country as GazetteerCountry;
  const given = normalizePostcode(country, parts.postcode, true);
  const place = `${result.suburb} ${result.state}`;
  if (result.precision === 'postcode_only') {
    const named = parts.suburb !== '' ? `no place called "${parts.suburb}"` : 'no place named in the address';
    return `The postcode won: ${named} has postcode ${result.postcode}, so the middle of postcode ${result.postcode} is used.`;
  }
  const notes: string[] = [];
  if (given !== '' && given !== result.postcode) {
    if (
      country === 'AU' &&
      isAustralianBoxPostcode(given) &&
      parts.street &&
      !parts.poBox &&
      nameKey(parts.suburb) === nameKey(result.suburb)
    ) {
      notes.push(`${given} is a PO-box postcode; a street address gets ${place}'s delivery postcode ${result.postcode}.`);
    } else {
      notes.push(`The suburb won: postcode ${given} is not ${place}'s, so its own postcode ${result.postcode} is used.`);
    }
  } else if (given === '') {
    const written = parts.postcode.trim() || (reading.from === 'location' ? lastNumber(cellText(address.location)) : '');
    const used = `${place}'s ${parts.poBox || country !== 'AU' ? '' : 'delivery '}postcode ${result.postcode} is used`;
    if (written !== '') notes.push(`The suburb won: "${written}" is not a postcode ${COUNTRY_DISPLAY_NAMES[country]} has, so ${used}.`);
    else if (country === 'AU') notes.push(`No postcode was given: ${used}.`);
  }
  if (parts.state !== '' && !geocoder.stateCodes(country, parts.state).includes(result.state)) {
    notes.push(
      `The suburb${given === result.postcode ? ' and postcode' : ''} won over the state: ${result.suburb} is in ${result.state}, not ${parts.state}.`,
    );
  }
  return notes.join(' ');
}

/** The number written last in a free-text address (before a country name), where its postcode would be: "99999" in "Canberra ACT 99999". */
function lastNumber(location: string): string {
  return /(?:^|[\s,])(\d{3,6})\s*(?:,\s*\p{L}[\p{L} ]*)?$/u.exec(location.trim())?.[1] ?? '';
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

function partsReason(
  geocoder: GazetteerLookups,
  countries: readonly GazetteerCountry[],
  countryGiven: boolean,
  suburb: string,
  state: string,
  postcode: string,
): string {
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
  const inAustralia = found.some((f) => f.country === 'AU' && f.named.length > 0);
  if (!countryGiven && found.every((f) => f.postcode === '') && !stateKnown && !inAustralia) {
    if (postcode !== '')
      return `"${postcode}" is not a postcode of any country the gazetteer covers, and without a country only an Australian place name is enough on its own: correct the postcode, or add the state or the country.`;
    if (anyNamed)
      return `No Australian place is called "${suburb}", and without a country a place name of another country is not enough on its own: add the state, the postcode or the country.`;
  }
  if (suburb !== '' && postcode !== '' && !anyNamed && !anyCoded)
    return `Neither the place "${suburb}" nor the postcode "${postcode}" is in the gazetteer${where}.`;
  if (suburb === '' && !anyCoded) return `The postcode "${postcode}" is not in the gazetteer${where}.`;
  if (postcode === '' && !anyNamed) return `No place called "${suburb}" is in the gazetteer${where}.`;
  const several = countries.length > 1;
  const stateOf = (f: Found, i: number) => `${g.state[i] ?? ''}${several ? ` (${COUNTRY_DISPLAY_NAMES[f.country]})` : ''}`;
  if (postcode === '' && state === '') {
    // Without a country, Australia comes first: only its states count.
    const among = !countryGiven && inAustralia ? found.filter((f) => f.country === 'AU') : found;
    const states = [...new Set(among.flatMap((f) => f.named.map((i) => (among.length > 1 ? stateOf(f, i) : (g.state[i] ?? '')))))];
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
  if (items.length <= MOST_LISTED + 1)
    return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1] ?? ''}` : (items[0] ?? '');
  return `${items.slice(0, MOST_LISTED).join(', ')} and ${items.length - MOST_LISTED} more`;
}
