import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { buildGazetteerText, DEFAULT_RAW_DIR } from '../../server/geocoding/build-gazetteer.ts';
import { GAZETTEER_FILE } from '../../server/geocoding/gazetteer-format.ts';
import { parseGazetteer } from '../../server/geocoding/gazetteer.ts';
import { createOfflineGeocoder, loadGeocoder } from '../../server/geocoding/offline-geocoder.ts';
import { sampleAddresses } from '../../server/geocoding/samples.ts';

const rawDirMissing = existsSync(DEFAULT_RAW_DIR)
  ? false
  : `raw GeoNames files not found at ${DEFAULT_RAW_DIR}; set QR_SANDBOX_GEONAMES_DIR to the folder of AU.txt, US.txt, … to run it`;
if (rawDirMissing) console.log(`# skipping the data file rebuild check: ${rawDirMissing}`);

test('the committed gazetteer is what the build script makes from ../shared/data', { skip: rawDirMissing }, () => {
  const committed = gunzipSync(readFileSync(GAZETTEER_FILE)).toString('utf8');
  const rebuilt = buildGazetteerText(DEFAULT_RAW_DIR);
  assert.equal(committed.length, rebuilt.length, 'run npm run build:geodata and commit the data file');
  assert.ok(committed === rebuilt, 'run npm run build:geodata and commit the data file');
});

test('the committed gazetteer is small and covers every country', () => {
  assert.ok(statSync(GAZETTEER_FILE).size < 3 * 1024 * 1024);
  const g = parseGazetteer(gunzipSync(readFileSync(GAZETTEER_FILE)).toString('utf8'));
  for (const country of ['AU', 'US', 'GB', 'CA', 'IT'] as const) {
    assert.ok((g.countries.get(country)?.byPostcode.size ?? 0) > 1000 || country === 'CA', country);
    assert.ok(g.country.includes(country), country);
  }
  assert.ok(g.size > 100_000);
});

test('a malformed gazetteer line is an error, not a silent gap', () => {
  assert.throws(() => parseGazetteer('Z\tAustralia/Sydney\n3000\tMelbourne\n'), /Malformed gazetteer line/);
  const tiny = parseGazetteer('Z\tAustralia/Melbourne\nS\tAU\tVIC\tVictoria\nC\tAU\n3065\tFitzroy\tVIC\t-37.8004\t144.9745\t0\n');
  const result = createOfflineGeocoder(tiny).locate({ suburb: 'fitzroy', state: 'victoria', postcode: '3065' });
  assert.equal(result?.precision, 'postcode');
  assert.equal(result?.latitude, -37.8004);
  assert.equal(result?.timezone_name, 'Australia/Melbourne');
});

test('loadGeocoder loads once per thread', () => {
  assert.equal(loadGeocoder(), loadGeocoder());
});

test('sampleAddresses gives thousands of real, distinct suburbs that locate exactly', () => {
  const samples = sampleAddresses(3000);
  assert.equal(samples.length, 3000);
  assert.equal(new Set(samples.map((s) => `${s.suburb} ${s.state}`)).size, 3000);
  assert.equal(new Set(samples.map((s) => s.state)).size, 8);
  const geocoder = loadGeocoder();
  for (const sample of samples) {
    const result = geocoder.locate(sample);
    assert.equal(result?.precision, 'postcode', JSON.stringify(sample));
    assert.equal(result?.suburb, sample.suburb);
    assert.equal(geocoder.locate({ location: sample.location })?.postcode, sample.postcode, sample.location);
  }
  // It cycles when asked for more than there are.
  const all = sampleAddresses(20_000);
  assert.equal(all.length, 20_000);
  assert.deepEqual(all[0], sampleAddresses(1)[0]);
});

test('npm run build:geodata without the raw files exits 2 naming each missing file and where it comes from, writing nothing', () => {
  const empty = mkdtempSync(path.join(os.tmpdir(), 'qr-geonames-'));
  try {
    const out = path.join(empty, 'gazetteer.tsv.gz');
    const run = spawnSync(
      process.execPath,
      [fileURLToPath(new URL('../../server/geocoding/build-gazetteer.ts', import.meta.url)), empty, out],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(run.status, 2, run.stderr);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    for (const country of ['AU', 'US', 'GB', 'CA', 'IT']) assert.ok(run.stderr.includes(path.join(empty, `${country}.txt`)), country);
    assert.match(run.stderr, /https:\/\/download\.geonames\.org\/export\/zip\//);
    assert.match(run.stderr, /npm run build:geodata -- DIR/);
    assert.equal(existsSync(out), false);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
