/**
 * How the geocoder located each QR code (the record's `precision`), best first, with the colour
 * the map draws it in: a CSS variable of qr-map.css, light and dark.
 */
export const PRECISIONS = [
  { key: 'postcode', label: 'Postcode, suburb and state agree', colour: '--map-postcode' },
  { key: 'city', label: 'City (outside Australia)', colour: '--map-city' },
  { key: 'place', label: 'Suburb name; postcode missing or different', colour: '--map-place' },
  { key: 'postcode_only', label: 'Postcode only', colour: '--map-postcode-only' },
  { key: 'other', label: 'Other', colour: '--map-other' },
] as const;

export type PrecisionKey = (typeof PRECISIONS)[number]['key'];

const KNOWN = new Set<string>(PRECISIONS.map((p) => p.key));

/** The legend entry of a record's precision; one the legend does not know is "other". */
export function precisionKey(precision: string | null): PrecisionKey {
  return precision !== null && KNOWN.has(precision) ? (precision as PrecisionKey) : 'other';
}

export const precisionIndex = (precision: string | null): number => PRECISIONS.findIndex((p) => p.key === precisionKey(precision));
