/**
 * Which of a suburb's postcodes a street address gets. GeoNames lists PO-box and large-volume
 * receiver postcodes beside delivery ones without flagging them (Sydney: 1001-1299, 2000, 2001),
 * so two data-driven rules tell them apart:
 *
 * 1. Australia Post reserves whole ranges for PO boxes and large-volume receivers
 *    (Australia Post, "Postcode allocation"; summarised at
 *    https://en.wikipedia.org/wiki/Postcodes_in_Australia#Allocation): NSW 1000-1999,
 *    ACT 0200-0299, VIC 8000-8999, QLD 9000-9999, SA 5800-5999, WA 6800-6999, TAS 7800-7999,
 *    NT 0900-0999.
 * 2. The boxes of one post office share its point: in GeoNames a postcode of the same place
 *    at exactly the same coordinates as another of its postcodes is a box postcode (Sydney 2001
 *    sits on the GPO with 1001-1299; Melbourne 3001 with 8001; Parramatta 2123 with 2124),
 *    while a delivery area has its own centroid (Sydney 2000, Melbourne 3000, Parramatta 2150).
 *
 * Of the postcodes left, the lowest is the suburb's main delivery postcode (a city's CBD is its
 * x000). When a rule would leave nothing, the previous set is kept (Darwin: 0800 and 0801 share
 * a point, so 0800 is chosen as the lowest).
 */
import type { Gazetteer } from './gazetteer.ts';

const AU_BOX_RANGES: readonly [state: string, from: number, to: number][] = [
  ['NSW', 1000, 1999],
  ['ACT', 200, 299],
  ['VIC', 8000, 8999],
  ['QLD', 9000, 9999],
  ['SA', 5800, 5999],
  ['WA', 6800, 6999],
  ['TAS', 7800, 7999],
  ['NT', 900, 999],
];

/** An Australian postcode in the range Australia Post keeps for PO boxes and large-volume receivers. */
export function isAustralianBoxPostcode(postcode: string): boolean {
  const n = Number.parseInt(postcode, 10);
  return /^\d{4}$/.test(postcode) && AU_BOX_RANGES.some(([, from, to]) => n >= from && n <= to);
}

/**
 * Of one suburb's places (same name and state, in postcode order), the one with its delivery
 * postcode. `pool` must not be empty.
 */
export function deliveryPlace(g: Gazetteer, pool: readonly number[]): number {
  const outsideRanges = keepSome(pool, (i) => !isAustralianBoxPostcode(g.postcode[i] ?? ''));
  const ownPoint = keepSome(
    outsideRanges,
    (i) => !pool.some((j) => j !== i && g.latitude[j] === g.latitude[i] && g.longitude[j] === g.longitude[i]),
  );
  let best = ownPoint[0] ?? pool[0] ?? 0;
  for (const i of ownPoint) if ((g.postcode[i] ?? '') < (g.postcode[best] ?? '')) best = i;
  return best;
}

function keepSome(places: readonly number[], keep: (i: number) => boolean): readonly number[] {
  const kept = places.filter(keep);
  return kept.length > 0 ? kept : places;
}
