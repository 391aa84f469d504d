/**
 * Turns the raw GeoNames postal code files into the compact gazetteer the app ships.
 * Usage: npm run build:geodata [-- <raw dir> [<output file>]]
 * The raw dir defaults to $QR_SANDBOX_GEONAMES_DIR, else ../shared/data/geonames-postal beside the repository.
 * Without the raw files it exits 2, saying which are missing and where they come from.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import tzLookup from '@photostructure/tz-lookup';
import { EXTRA_STATE_NAMES, GAZETTEER_COUNTRIES } from './countries.ts';
import { GAZETTEER_FILE, GAZETTEER_HEADER } from './gazetteer-format.ts';
import { nameKey } from './normalize.ts';
import { zoneOfPlace } from './zones.ts';

/** Where the raw files come from: one zip per country, each holding <country>.txt. */
export const GEONAMES_DOWNLOAD_URL = 'https://download.geonames.org/export/zip/';

export const DEFAULT_RAW_DIR = resolve(
  process.env.QR_SANDBOX_GEONAMES_DIR || fileURLToPath(new URL('../../../shared/data/geonames-postal', import.meta.url)),
);

interface Place {
  postcode: string;
  name: string;
  state: string;
  latitude: number;
  longitude: number;
  zone: string;
  aliases: string[];
}

interface GeoNamesRow {
  postcode: string;
  place: string;
  admin1Name: string;
  admin1Code: string;
  admin2Name: string;
  admin2Code: string;
  latitude: number;
  longitude: number;
}

/** The gazetteer text (before compression) for the raw files in rawDir. */
export function buildGazetteerText(rawDir: string): string {
  const zones: string[] = [];
  const zoneIndex = new Map<string, number>();
  const stateLines: string[] = [];
  const placeBlocks: string[] = [];
  for (const country of GAZETTEER_COUNTRIES) {
    const rows = readGeoNames(join(rawDir, `${country}.txt`));
    const states = new Map<string, Set<string>>();
    const places = new Map<string, Place>();
    for (const row of rows) {
      const place = toPlace(country, row);
      if (!place) continue;
      const zone = zoneOfPlace(country, place.state, place.latitude, place.longitude, tzLookup);
      if (!zone) continue;
      place.zone = zone;
      const key = `${place.postcode}\t${place.name}\t${place.state}`;
      if (!places.has(key)) places.set(key, place);
      if (country !== 'GB') addStateNames(states, country, place.state, row);
    }
    for (const [code, names] of EXTRA_STATE_NAMES[country] ? Object.entries(EXTRA_STATE_NAMES[country]) : []) {
      for (const name of names) states.get(code)?.add(name);
    }
    for (const code of [...states.keys()].sort()) {
      stateLines.push(['S', country, code, ...(states.get(code) ?? [])].join('\t'));
    }
    const lines = [`C\t${country}`];
    const sorted = [...places.values()].sort(
      (a, b) => compare(a.postcode, b.postcode) || compare(a.name, b.name) || compare(a.state, b.state),
    );
    for (const place of sorted) {
      let index = zoneIndex.get(place.zone);
      if (index === undefined) {
        index = zones.length;
        zones.push(place.zone);
        zoneIndex.set(place.zone, index);
      }
      const fields = [place.postcode, place.name, place.state, coordinate(place.latitude), coordinate(place.longitude), String(index)];
      // Name keys are stored where they differ from the lower-cased name, so loading needs no normalising.
      const key = nameKey(place.name);
      const aliasKeys = [...new Set(place.aliases.map(nameKey))].filter((alias) => alias !== key && alias !== '');
      if (key !== place.name.toLowerCase() || aliasKeys.length > 0) fields.push(key === place.name.toLowerCase() ? '' : key);
      if (aliasKeys.length > 0) fields.push(aliasKeys.join('|'));
      lines.push(fields.join('\t'));
    }
    placeBlocks.push(lines.join('\n'));
  }
  return [GAZETTEER_HEADER, ['Z', ...zones].join('\t'), ...stateLines, ...placeBlocks].join('\n') + '\n';
}

function readGeoNames(file: string): GeoNamesRow[] {
  const rows: GeoNamesRow[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const f = line.split('\t');
    if (f.length < 11) continue;
    const latitude = Number(f[9]);
    const longitude = Number(f[10]);
    if (f[9] === '' || f[10] === '' || !Number.isFinite(latitude) || !Number.isFinite(longitude)) continue;
    rows.push({
      postcode: (f[1] ?? '').trim(),
      place: clean(f[2]),
      admin1Name: clean(f[3]),
      admin1Code: clean(f[4]),
      admin2Name: clean(f[5]),
      admin2Code: clean(f[6]),
      latitude,
      longitude,
    });
  }
  return rows;
}

function toPlace(country: string, row: GeoNamesRow): Place | undefined {
  if (row.postcode === '' || row.place === '') return undefined;
  const base = { postcode: row.postcode, latitude: row.latitude, longitude: row.longitude, zone: '', aliases: [] };
  switch (country) {
    case 'AU':
    case 'US':
      return row.admin1Code === '' ? undefined : { ...base, name: row.place, state: row.admin1Code };
    case 'GB':
      return { ...base, name: row.place, state: row.admin2Name || row.admin1Name };
    case 'IT':
      return row.admin2Code === '' ? undefined : { ...base, name: row.place, state: row.admin2Code };
    case 'CA':
      return row.admin1Code === '' ? undefined : { ...base, ...canadianNames(row), state: row.admin1Code };
    default:
      return undefined;
  }
}

const DIRECTION_SUFFIX =
  /\s+(north|south|east|west|central|northeast|northwest|southeast|southwest|region|outskirts|downtown)(\s+(north|south|east|west|central))*$/i;

/**
 * Canadian rows describe a forward sortation area ("Downtown Toronto (CN Tower / ...)",
 * "Burlington West"): name the place by its city (admin name 2) and keep the rest as aliases.
 */
function canadianNames(row: GeoNamesRow): { name: string; aliases: string[] } {
  const paren = /^(.*?)\s*\((.*)\)\s*$/.exec(row.place);
  const main = paren?.[1] ?? row.place;
  const inner = paren?.[2] ? paren[2].split('/').map((part) => part.trim()) : [];
  const name = row.admin2Name || main.replace(DIRECTION_SUFFIX, '');
  const seen = new Set([name.toLowerCase()]);
  const aliases: string[] = [];
  for (const alias of [main, main.replace(DIRECTION_SUFFIX, ''), ...inner]) {
    if (alias === '' || seen.has(alias.toLowerCase())) continue;
    seen.add(alias.toLowerCase());
    aliases.push(alias.replace(/[|\t]/g, ' '));
  }
  return { name, aliases };
}

function addStateNames(states: Map<string, Set<string>>, country: string, code: string, row: GeoNamesRow): void {
  let names = states.get(code);
  if (!names) {
    names = new Set();
    states.set(code, names);
  }
  if (country === 'IT') {
    if (row.admin2Name) names.add(row.admin2Name);
    if (row.admin1Name) names.add(row.admin1Name);
  } else if (row.admin1Name) {
    names.add(row.admin1Name);
  }
}

function clean(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function coordinate(value: number): string {
  return String(Math.round(value * 1e4) / 1e4);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The raw files the build needs that rawDir lacks (full paths). */
export function missingRawFiles(rawDir: string): string[] {
  return GAZETTEER_COUNTRIES.map((country) => join(rawDir, `${country}.txt`)).filter((file) => !existsSync(file));
}

/** What to do when raw files are missing: where they come from and how to name their folder. */
export function missingRawFilesMessage(rawDir: string, missing: string[]): string {
  const zips = GAZETTEER_COUNTRIES.map((country) => `${country}.zip`).join(', ');
  return [
    `npm run build:geodata needs the raw GeoNames postal code files, and ${missing.length} of ${GAZETTEER_COUNTRIES.length} are missing:`,
    ...missing.map((file) => `  ${file}`),
    `They come from GeoNames (CC BY 4.0): download ${zips} from ${GEONAMES_DOWNLOAD_URL} and unzip them into ${rawDir},`,
    'or name the folder that holds them: npm run build:geodata -- DIR (or QR_SANDBOX_GEONAMES_DIR=DIR).',
    'Nothing was written; the app keeps using the committed server/geocoding/data/gazetteer.tsv.gz.',
  ].join('\n');
}

function build(rawDir: string, outFile: string): void {
  const text = buildGazetteerText(rawDir);
  const packed = gzipSync(text, { level: 9 });
  writeFileSync(outFile, packed);
  const lines = text.split('\n').length;
  console.log(JSON.stringify({ rawDir, outFile, lines, textBytes: Buffer.byteLength(text), gzipBytes: packed.length }));
}

if (import.meta.main) {
  const rawDir = resolve(process.argv[2] ?? DEFAULT_RAW_DIR);
  const outFile = resolve(process.argv[3] ?? GAZETTEER_FILE);
  const missing = missingRawFiles(rawDir);
  if (missing.length > 0) {
    process.stderr.write(`${missingRawFilesMessage(rawDir, missing)}\n`);
    process.exitCode = 2;
  } else {
    build(rawDir, outFile);
  }
}
