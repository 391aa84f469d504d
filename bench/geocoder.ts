/**
 * Geocoder benchmark: load time and locate() rate, against a plain Map lookup of the same keys
 * measured in the same run. Prints JSON. Usage: node bench/geocoder.ts [rows]
 */
import { loadGazetteer } from '../server/geocoding/gazetteer.ts';
import type { AddressInput, GeoResult } from '../server/geocoding/geocoder.ts';
import { createOfflineGeocoder } from '../server/geocoding/offline-geocoder.ts';
import { sampleAddresses } from '../server/geocoding/samples.ts';

const rowCount = Number(process.argv[2] ?? 20000);
const STATE_NAMES: Record<string, string> = {
  ACT: 'Australian Capital Territory',
  NSW: 'New South Wales',
  NT: 'Northern Territory',
  QLD: 'Queensland',
  SA: 'South Australia',
  TAS: 'Tasmania',
  VIC: 'Victoria',
  WA: 'Western Australia',
};

const loadStart = performance.now();
const gazetteer = loadGazetteer();
const loadMs = performance.now() - loadStart;
const geocoder = createOfflineGeocoder(gazetteer);

const samples = sampleAddresses(rowCount);
// Typical import rows: parts as people type them (names or codes, any case, numeric postcodes).
const partRows: AddressInput[] = samples.map((s, k) => ({
  suburb: k % 3 === 0 ? s.suburb.toUpperCase() : s.suburb,
  state: k % 2 === 0 ? s.state : (STATE_NAMES[s.state] ?? s.state),
  postcode: k % 5 === 0 ? String(Number(s.postcode)) : s.postcode,
  country: k % 2 === 0 ? 'AU' : 'Australia',
}));
const textRows: AddressInput[] = samples.map((s, k) => ({ location: `${k + 1} Main St, ${s.location}` }));

const baseline = new Map<string, GeoResult | null>();
for (const row of partRows) baseline.set(`${row.suburb}|${row.state}|${row.postcode}|${row.country}`, geocoder.locate(row));

function rate(run: () => number): { callsPerSecond: number; located: number } {
  let calls = 0;
  let located = 0;
  const start = performance.now();
  while (performance.now() - start < 500) {
    located = run();
    calls += rowCount;
  }
  return { callsPerSecond: Math.round(calls / ((performance.now() - start) / 1000)), located };
}

const mapLookup = rate(() => {
  let found = 0;
  for (const row of partRows) if (baseline.get(`${row.suburb}|${row.state}|${row.postcode}|${row.country}`)) found++;
  return found;
});
const parts = rate(() => {
  let found = 0;
  for (const row of partRows) if (geocoder.locate(row)) found++;
  return found;
});
const freeText = rate(() => {
  let found = 0;
  for (const row of textRows) if (geocoder.locate(row)) found++;
  return found;
});

console.log(
  JSON.stringify(
    {
      places: gazetteer.size,
      loadMs: Math.round(loadMs),
      rows: rowCount,
      baselineMapLookup: mapLookup,
      locateParts: { ...parts, vsBaseline: Number((parts.callsPerSecond / mapLookup.callsPerSecond).toFixed(3)) },
      locateFreeText: { ...freeText, vsBaseline: Number((freeText.callsPerSecond / mapLookup.callsPerSecond).toFixed(3)) },
    },
    null,
    2,
  ),
);
