/** Text keys for comparing names: case, accents, punctuation and spacing do not matter. */

const ABBREVIATIONS: Record<string, string> = { mt: 'mount', st: 'saint', ste: 'sainte', pt: 'port', ft: 'fort' };

const MEMO_LIMIT = 50_000;
const memo = new Map<string, string>();

/** "St. Kilda", "saint  kilda", "SAINT-KILDA" all give "saint kilda". */
export function nameKey(text: string): string {
  let key = memo.get(text);
  if (key === undefined) {
    // Import rows repeat the same suburbs, states and countries: remember recent keys.
    if (memo.size >= MEMO_LIMIT) memo.clear();
    key = computeNameKey(text);
    memo.set(text, key);
  }
  return key;
}

/** nameKey without the memory: for one-off words such as street numbers, which would only crowd it out. */
export function computeNameKey(text: string): string {
  let s = text.toLowerCase();
  if (!/^[a-z ]*$/.test(s)) {
    s = s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[.'’]/g, '')
      .replace(/[^a-z0-9]+/g, ' ');
  }
  const words = s.split(' ');
  let out = '';
  for (const word of words) {
    if (word === '') continue;
    const expanded = ABBREVIATIONS[word] ?? word;
    out = out === '' ? expanded : out + ' ' + expanded;
  }
  return out;
}

/** Text of a spreadsheet cell or JSON value: numbers become digits ("800.0" -> "800"). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(Math.trunc(value)) : '';
  const text = String(value).trim();
  return /^\d+\.0+$/.test(text) ? text.slice(0, text.indexOf('.')) : text;
}

/**
 * The postcode as the gazetteer writes it, or '' when it cannot be one for this country.
 * `padded` allows leading zeros lost by a numeric spreadsheet cell (800 -> 0800).
 */
export function normalizePostcode(country: string, raw: string, padded: boolean): string {
  const compact = raw.toUpperCase().replace(/\s+/g, '');
  if (compact === '') return '';
  switch (country) {
    case 'AU':
      return digits(compact, 4, padded ? 3 : 4); // lowest is 0200
    case 'IT':
      return digits(compact, 5, padded ? 2 : 5); // e.g. 00010
    case 'US': {
      const zip = /^(\d{3,5})(-\d{4})?$/.exec(compact);
      return zip?.[1] ? digits(zip[1], 5, padded ? 3 : 5) : ''; // lowest is 00501
    }
    case 'CA': {
      const fsa = /^([A-Z]\d[A-Z])(\d[A-Z]\d)?$/.exec(compact);
      return fsa?.[1] ?? '';
    }
    case 'GB': {
      const full = /^([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})?$/.exec(compact);
      return full?.[1] ?? '';
    }
    default:
      return '';
  }
}

/** Digits padded to width with zeros when at least `shortest` long. */
function digits(text: string, width: number, shortest: number): string {
  if (!/^\d+$/.test(text) || text.length > width || text.length < shortest) return '';
  return text.padStart(width, '0');
}
