/**
 * Geocoder benchmark. Prints JSON:
 * - accuracy over the table of real-form, foreign and junk addresses (test/fixtures/real-addresses.ts):
 *   precision (placed correctly / placed), the share placed wrongly (placed wrongly / placed) and
 *   recall (placed correctly / should be placed);
 * - speed (median of 5 rounds; with --before the versions alternate): load time, locate() rate on typical import rows (parts and free text, answers remembered
 *   as in an import) against a plain Map lookup of the same keys in the same run, and microseconds
 *   per address of the table with nothing remembered.
 * With --before=<git ref>, the geocoder of that commit (its server/geocoding folder, taken with
 * git archive into a temporary folder) is measured the same way in the same run.
 * Usage: node bench/geocoder.ts [rows] [--before=<git ref>]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInput, Geocoder, GeoResult } from '../server/geocoding/geocoder.ts';
import { sampleAddresses } from '../server/geocoding/samples.ts';
import { outcomeOf, REAL_ADDRESSES, type Outcome } from '../test/fixtures/real-addresses.ts';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const rowCount = Number(args.find((a) => /^\d+$/.test(a)) ?? 20000);
const beforeRef = args.find((a) => a.startsWith('--before='))?.slice('--before='.length);

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

/** The pieces of a geocoder module tree (this one, or an older commit's). */
interface GeocoderModules {
  loadGazetteer: () => unknown;
  createGeocoder: (gazetteer: unknown) => Geocoder;
}

async function modulesAt(root: string): Promise<GeocoderModules> {
  const gazetteer = (await import(join(root, 'server/geocoding/gazetteer.ts'))) as { loadGazetteer: () => unknown };
  const offline = (await import(join(root, 'server/geocoding/offline-geocoder.ts'))) as { createOfflineGeocoder: (g: unknown) => Geocoder };
  return { loadGazetteer: gazetteer.loadGazetteer, createGeocoder: offline.createOfflineGeocoder };
}

/** server/geocoding of a commit, in a temporary folder that resolves packages from this repository. */
function checkout(ref: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'geocoder-before-'));
  const archive = execFileSync('git', ['-C', REPO, 'archive', '--format=tar', ref, 'server/geocoding'], { maxBuffer: 64 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

const samples = sampleAddresses(rowCount);
// Typical import rows: parts as people type them (names or codes, any case, numeric postcodes).
const partRows: AddressInput[] = samples.map((s, k) => ({
  suburb: k % 3 === 0 ? s.suburb.toUpperCase() : s.suburb,
  state: k % 2 === 0 ? s.state : (STATE_NAMES[s.state] ?? s.state),
  postcode: k % 5 === 0 ? String(Number(s.postcode)) : s.postcode,
  country: k % 2 === 0 ? 'AU' : 'Australia',
}));
const textRows: AddressInput[] = samples.map((s, k) => ({ location: `${k + 1} Main St, ${s.location}` }));

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

function accuracy(geocoder: Geocoder) {
  const counts: Record<Outcome, number> = {
    'placed correctly': 0,
    'placed wrongly': 0,
    missed: 0,
    excluded: 0,
    'excluded, other reason': 0,
  };
  const wrong: string[] = [];
  const missed: string[] = [];
  for (const row of REAL_ADDRESSES) {
    const result = geocoder.locate(row.address);
    const outcome = outcomeOf(row, result, result ? null : (geocoder.whyNotLocated?.(row.address) ?? null));
    counts[outcome]++;
    const label = `${row.address.location ?? JSON.stringify(row.address)} -> ${result ? `${result.suburb} ${result.state} ${result.postcode} ${result.country}` : 'not located'}`;
    if (outcome === 'placed wrongly') wrong.push(label);
    if (outcome === 'missed') missed.push(label);
  }
  const placed = counts['placed correctly'] + counts['placed wrongly'];
  const shouldBePlaced = REAL_ADDRESSES.filter((r) => r.placed).length;
  const ratio = (a: number, b: number) => (b === 0 ? null : Number((a / b).toFixed(3)));
  return {
    rows: REAL_ADDRESSES.length,
    shouldBePlaced,
    shouldBeExcluded: REAL_ADDRESSES.length - shouldBePlaced,
    placed,
    ...counts,
    precision: ratio(counts['placed correctly'], placed),
    placedWronglyShare: ratio(counts['placed wrongly'], placed),
    recall: ratio(counts['placed correctly'], shouldBePlaced),
    placedWrongly: wrong,
    missedRows: missed,
  };
}

/** Rates are measured in rounds, alternating between the versions, and the median round is kept: the machine's load moves in the meantime. */
const ROUNDS = 5;

interface Version {
  geocoder: Geocoder;
  gazetteer: unknown;
  modules: GeocoderModules;
  loadMs: number;
}

async function load(modules: GeocoderModules): Promise<Version> {
  const loadStart = performance.now();
  const gazetteer = modules.loadGazetteer();
  const loadMs = performance.now() - loadStart;
  return { geocoder: modules.createGeocoder(gazetteer), gazetteer, modules, loadMs };
}

function speedRound({ geocoder, gazetteer, modules }: Version) {
  const baseline = new Map<string, GeoResult | null>();
  for (const row of partRows) baseline.set(`${row.suburb}|${row.state}|${row.postcode}|${row.country}`, geocoder.locate(row));
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
  // Each pass a new geocoder over the same gazetteer: nothing remembered, every address read afresh.
  let passes = 0;
  const tableStart = performance.now();
  while (performance.now() - tableStart < 500) {
    const fresh = modules.createGeocoder(gazetteer);
    for (const row of REAL_ADDRESSES) fresh.locate(row.address);
    passes++;
  }
  const microsPerTableAddress = ((performance.now() - tableStart) * 1000) / (passes * REAL_ADDRESSES.length);
  return {
    rows: rowCount,
    baselineMapLookup: mapLookup,
    locateParts: { ...parts, vsBaseline: Number((parts.callsPerSecond / mapLookup.callsPerSecond).toFixed(3)) },
    locateFreeText: { ...freeText, vsBaseline: Number((freeText.callsPerSecond / mapLookup.callsPerSecond).toFixed(3)) },
    microsPerTableAddressUncached: Number(microsPerTableAddress.toFixed(1)),
  };
}

type Speed = ReturnType<typeof speedRound>;

function median(rounds: Speed[]): Speed {
  const middle = <T>(values: T[], by: (v: T) => number): T => [...values].sort((a, b) => by(a) - by(b))[Math.floor(values.length / 2)] as T;
  return {
    rows: rowCount,
    baselineMapLookup: middle(
      rounds.map((r) => r.baselineMapLookup),
      (v) => v.callsPerSecond,
    ),
    locateParts: middle(
      rounds.map((r) => r.locateParts),
      (v) => v.callsPerSecond,
    ),
    locateFreeText: middle(
      rounds.map((r) => r.locateFreeText),
      (v) => v.callsPerSecond,
    ),
    microsPerTableAddressUncached: middle(
      rounds.map((r) => r.microsPerTableAddressUncached),
      (v) => v,
    ),
  };
}

interface Measured {
  name: string;
  version: Version;
  rounds: Speed[];
  dir?: string;
}

const versions: Measured[] = [{ name: 'now', version: await load(await modulesAt(REPO)), rounds: [] }];
if (beforeRef) {
  const dir = checkout(beforeRef);
  versions.push({ name: beforeRef, version: await load(await modulesAt(dir)), rounds: [], dir });
}
try {
  for (let round = 0; round < ROUNDS; round++) for (const v of versions) v.rounds.push(speedRound(v.version));
} finally {
  for (const v of versions) if (v.dir) rmSync(v.dir, { recursive: true, force: true });
}
const report = (v: Measured) => ({ loadMs: Math.round(v.version.loadMs), accuracy: accuracy(v.version.geocoder), speed: median(v.rounds) });
const now = report(versions[0] as Measured);
const before = versions[1] ? { ref: beforeRef ?? '', ...report(versions[1]) } : undefined;
const versus = (a: number, b: number) => Number((a / b).toFixed(3));
console.log(
  JSON.stringify(
    {
      now,
      ...(before
        ? {
            before,
            nowVsBefore: {
              precision: [before.accuracy.precision, now.accuracy.precision],
              recall: [before.accuracy.recall, now.accuracy.recall],
              placedWrongly: [before.accuracy['placed wrongly'], now.accuracy['placed wrongly']],
              partsSpeedRatio: versus(now.speed.locateParts.callsPerSecond, before.speed.locateParts.callsPerSecond),
              freeTextSpeedRatio: versus(now.speed.locateFreeText.callsPerSecond, before.speed.locateFreeText.callsPerSecond),
              uncachedTimeRatio: versus(now.speed.microsPerTableAddressUncached, before.speed.microsPerTableAddressUncached),
            },
          }
        : {}),
    },
    null,
    2,
  ),
);
