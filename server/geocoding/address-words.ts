/**
 * The words of a free-text address, with the ones that cannot be the place, state or postcode
 * marked: the unit, level or shop ("Unit 5/12", "Level 3", "Shop 4"), the PO box ("PO Box 123",
 * "Locked Bag 7") and the street ("100 George St", "Cnr Pitt & Market Sts", "Via del Corso 1").
 */
import { computeNameKey } from './normalize.ts';

export type WordRole = 'free' | 'unit' | 'box' | 'street' | 'country';

export interface Word {
  text: string;
  /** nameKey(text) ("P.O." is "po"): a run of words is matched by its words' keys joined with spaces, the same as nameKey of the run. */
  key: string;
  /** Comma-, semicolon- or line-separated part of the address the word is in. */
  segment: number;
  role: WordRole;
  /** Read as the postcode. */
  postcode: boolean;
  /** Part of the state (which may also be the place's name: "Firenze", "New York"). */
  inState: boolean;
}

export interface AddressWords {
  words: Word[];
  /** A PO box, GPO box, locked bag or private bag: its postcode is kept even when it is a box-only one. */
  poBox: boolean;
  /** A street (number and street name) was found. */
  street: boolean;
}

/** Street types written after the street's name ("Smith St", "Queen Street"), in their usual abbreviations. */
const STREET_TYPES = new Set(
  (
    'street st sts streets road rd rds roads avenue ave av aves avenues drive dr drv court ct crt place pl parade pde ' +
    'terrace tce highway hwy crescent cres cr crs lane ln boulevard boulevarde blvd bvd way close cl circuit cct circle cir ' +
    'esplanade esp grove gr gve square sq walk wk row mews track tr trail parkway pkwy freeway fwy motorway mwy promenade prom ' +
    'rise retreat gardens gdns quay strand loop chase link pathway alley arcade concourse'
  ).split(' '),
);
/** Street types written before the street's name ("Via del Corso 1", "Rue de Rivoli"). */
const LEADING_STREET_TYPES = new Set('via viale piazza piazzale largo vicolo corso rue calle avenida rua'.split(' '));
const CORNER = new Set(['cnr', 'corner', 'crn']);
const JOINERS = new Set(['&', 'and', '/', 'cnr', 'corner', 'crn']);
/** US street directions after the type ("Pennsylvania Ave NW"). */
const DIRECTIONS = new Set(['nw', 'ne', 'sw', 'se']);
// Not "fl" (Florida) nor "rm" (Roma): state codes come after a place, unit words before a number.
const UNIT_WORDS = new Set('unit u apartment apt flat suite level lvl floor shop lot building bldg room villa townhouse house'.split(' '));
/** "5", "5/12", "12A", "12-14": a street number. */
const STREET_NUMBER = /^\d+[a-z]?([/-]\d+[a-z]?)?$/i;
/** A street number, or a unit's "G01" or "3rd" (floor). */
const UNIT_NUMBER = /^(\d+[a-z]?([/-]\d+[a-z]?)?|[a-z]\d+[a-z]?|\d+(st|nd|rd|th))$/i;

/**
 * `isPlace` tells whether a name key is a place of the gazetteer: words ending in a street type
 * that name a place are the place ("Ocean Grove", "Tea Gardens"), not a street.
 */
export function addressWords(location: string, isPlace: (key: string) => boolean = () => false): AddressWords {
  const words: Word[] = [];
  location.split(/[,;\n\r]+/).forEach((segment, index) => {
    // "5/12" stays one word; "&" becomes a word of its own ("Pitt&Market").
    for (const text of segment.replace(/&/g, ' & ').split(/\s+/)) {
      const clean = text.replace(/^[("']+|[)"':.]+$/g, '');
      if (clean !== '')
        words.push({
          text: clean,
          key: /^\d+$/.test(clean) ? clean : computeNameKey(clean),
          segment: index,
          role: 'free',
          postcode: false,
          inState: false,
        });
    }
  });
  const poBox = markBoxes(words);
  let street = false;
  for (const segment of new Set(words.map((w) => w.segment))) {
    const inSegment = words.filter((w) => w.segment === segment && w.role === 'free');
    markUnits(inSegment);
    const isLast = segment === words[words.length - 1]?.segment;
    if (
      markStreet(
        inSegment.filter((w) => w.role === 'free'),
        isLast,
        isPlace,
      )
    )
      street = true;
  }
  return { words, poBox, street };
}

/** "PO Box 123", "P.O. Box 123", "P O Box 123", "GPO Box 1234", "Locked Bag 7", "Private Bag 3", "PMB 12". */
function markBoxes(words: Word[]): boolean {
  let found = false;
  const key = (k: number) => words[k]?.key ?? '';
  for (let i = 0; i < words.length; i++) {
    let span = 0;
    if ((key(i) === 'po' || key(i) === 'gpo' || key(i) === 'pob') && key(i + 1) === 'box') span = 2;
    else if (key(i) === 'p' && key(i + 1) === 'o' && key(i + 2) === 'box') span = 3;
    else if (key(i) === 'pobox' || key(i) === 'pmb') span = 1;
    else if ((key(i) === 'locked' || key(i) === 'private') && key(i + 1) === 'bag') span = 2;
    else if (key(i) === 'post' && key(i + 1) === 'office' && key(i + 2) === 'box') span = 3;
    if (span === 0) continue;
    found = true;
    for (const word of words.slice(i, i + span)) word.role = 'box';
    const number = words[i + span];
    if (number && STREET_NUMBER.test(number.text)) number.role = 'box';
  }
  return found;
}

/** "Unit 5", "Level 3", "Shop 4", "Suite G01": the word and its number. */
function markUnits(words: Word[]): void {
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const number = words[i + 1];
    if (!word || !number || !UNIT_WORDS.has(word.text.toLowerCase()) || !UNIT_NUMBER.test(number.text)) continue;
    word.role = 'unit';
    number.role = 'unit';
  }
}

/**
 * The street of one segment: from the segment's start to its street type ("100 George St",
 * "Cnr Pitt & Market Sts"). A type counts only after a name ("12 Esplanade" is a name), and a
 * "&"/"and" after it runs on to the next street; a name and type that make a place's name
 * ("Ocean Grove") are not a street. A segment that opens with a number and has no
 * type is all street when a later segment holds the rest ("12 Esplanade, St Kilda").
 */
function markStreet(words: Word[], isLastSegment: boolean, isPlace: (key: string) => boolean): boolean {
  const first = words[0];
  if (!first) return false;
  const lower = words.map((w) => w.text.toLowerCase());
  if (LEADING_STREET_TYPES.has(lower[0] ?? '') && words.length > 1) {
    // "Via del Corso 1": up to the number that ends it; without one, the whole segment unless it is the last.
    const numberAt = words.findIndex((w, i) => i > 0 && STREET_NUMBER.test(w.text));
    const end = numberAt > 0 ? numberAt : isLastSegment ? -1 : words.length - 1;
    for (const word of words.slice(0, end + 1)) word.role = 'street';
    return end >= 0;
  }
  let end = -1;
  let names = 0;
  for (let i = CORNER.has(lower[0] ?? '') ? 1 : 0; i < words.length; i++) {
    const text = lower[i] ?? '';
    if (STREET_NUMBER.test(text)) {
      names = 0;
      continue;
    }
    if (STREET_TYPES.has(text) && names > 0 && !isPlace(spanKey(words.slice(i - names, i + 1)))) {
      end = i;
      if (DIRECTIONS.has(lower[i + 1] ?? '')) end = i + 1;
      if (!JOINERS.has(lower[end + 1] ?? '')) break;
      names = 0;
      continue;
    }
    if (!JOINERS.has(text)) names++;
  }
  // Without a street type, only a number that cannot be a postcode opens a street ("00186 Roma" is a CAP and its comune).
  const shortNumber = /^(\d{1,3}[a-z]?|\d+[a-z]?[/-]\d+[a-z]?)$/i.test(first.text);
  if (end < 0 && shortNumber && !isLastSegment && words.length > 1) end = words.length - 1;
  if (end < 0) return false;
  for (const word of words.slice(0, end + 1)) word.role = 'street';
  return true;
}

/** The key of a run of words: nameKey of their text joined with spaces. */
export function spanKey(span: readonly Word[]): string {
  let key = '';
  for (const w of span) if (w.key !== '') key = key === '' ? w.key : `${key} ${w.key}`;
  return key;
}
