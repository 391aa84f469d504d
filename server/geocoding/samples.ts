import { loadGazetteer, type Gazetteer } from './gazetteer.ts';

/** A real Australian address (suburb, state, postcode) that the offline geocoder locates exactly. */
export interface SampleAddress {
  suburb: string;
  state: string;
  postcode: string;
  country: 'AU';
  /** "Fitzroy VIC 3065, Australia" */
  location: string;
}

/**
 * The pool, kept only while something else holds it: the demo reads it once at the server's start,
 * and a gazetteer kept for it would hold 70 MB of the server's memory from then on.
 */
let kept: WeakRef<SampleAddress[]> | undefined;

/**
 * n real Australian suburbs, spread over every state: consecutive samples come from places far
 * apart in the gazetteer. When n exceeds the number of suburbs, the list cycles.
 */
export function sampleAddresses(n: number): SampleAddress[] {
  const pool = kept?.deref() ?? buildPool(loadGazetteer());
  kept = new WeakRef(pool);
  const out: SampleAddress[] = [];
  if (pool.length === 0) return out;
  // A stride coprime with the pool size visits every suburb once before repeating.
  const stride = coprimeStride(pool.length);
  for (let k = 0; k < n; k++) {
    const sample = pool[(k * stride) % pool.length];
    if (sample) out.push(sample);
  }
  return out;
}

function buildPool(g: Gazetteer): SampleAddress[] {
  const seen = new Set<string>();
  const samples: SampleAddress[] = [];
  for (let i = 0; i < g.size; i++) {
    if (g.country[i] !== 'AU') continue;
    const postcode = g.postcode[i] ?? '';
    const suburb = g.name[i] ?? '';
    const state = g.state[i] ?? '';
    if (!isStreetPostcode(postcode) || seen.has(suburb + state)) continue;
    seen.add(suburb + state);
    samples.push({ suburb, state, postcode, country: 'AU', location: `${suburb} ${state} ${postcode}, Australia` });
  }
  return samples;
}

/** Leaves out Australia's PO box and large-user postcode ranges (1000-1999, 8000-9999). */
function isStreetPostcode(postcode: string): boolean {
  const value = Number(postcode);
  return !(value >= 1000 && value < 2000) && value < 8000;
}

function coprimeStride(size: number): number {
  let stride = Math.max(1, Math.floor(size * 0.381966));
  while (gcd(stride, size) !== 1) stride++;
  return stride;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
