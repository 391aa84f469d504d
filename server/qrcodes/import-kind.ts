import type { ImportKind, ImportSummary } from '../imports/kind.ts';
import { SEARCH_INDEX_SHADOW } from './search-index.ts';
import { cellsAsText, echoAsText } from '../imports/engine/cell-text.ts';
import {
  QR_ECHO_FIELDS,
  QR_IMPORT_COLUMN_LABELS,
  QR_IMPORT_COLUMNS,
  QR_MAX_LENGTH,
  qrImportRowSchema,
  quickImportRow,
  type QrImportRow,
} from './import-row.ts';
import { openQrCodeWriter, QR_COUNTERS } from './import-writer.ts';
import type { QrCodeFileImportResults, QrCodeJsonImportResults } from './import-results.ts';

/** The row's address fields as text. */
const echo = echoAsText(QR_ECHO_FIELDS);

/** The task results (qrcodes/import-results.ts has their schemas): JSON imports and file imports name the counts differently (docs/api.md). */
function results(summary: ImportSummary): QrCodeJsonImportResults | QrCodeFileImportResults {
  const count = (name: string) => summary.counts[name] ?? 0;
  // Each excluded row echoes QR_ECHO_FIELDS (see echo above).
  const excluded = summary.excluded as QrCodeFileImportResults['excluded_data'];
  if (summary.source === 'json') {
    return {
      qr_code_inserted: count(QR_COUNTERS.inserted),
      qr_code_restored: count(QR_COUNTERS.restored),
      qr_code_tags_created: count(QR_COUNTERS.tagsCreated),
      excluded_qr_codes: excluded,
      qr_code_updated: count(QR_COUNTERS.updated),
      excluded_count: summary.excludedCount,
    };
  }
  return {
    inserted: count(QR_COUNTERS.inserted),
    excluded: summary.excludedCount,
    excluded_data: excluded,
    restored: count(QR_COUNTERS.restored),
    updated: count(QR_COUNTERS.updated),
    tags_created: count(QR_COUNTERS.tagsCreated),
  };
}

/** Other names people give the QR code import's columns in their own files (matched loosely, then by similarity). */
export const QR_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  location: ['Full Address', 'Site Address', 'Address (full)', 'Where'],
  name: ['Site Name', 'Site', 'Location Name', 'Place Name', 'Building', 'Premises'],
  qr_code_name: ['QR Name', 'QR Code', 'Code Name', 'Sticker Name'],
  qr_code_external_reference_id: [
    'Ext Ref',
    'External Ref',
    'External Reference',
    'External ID',
    'Ref',
    'Reference',
    'Site ID',
    'Site Code',
  ],
  address_line_1: ['Street Address', 'Address 1', 'Address Line 1', 'Address1', 'Street', 'Street Name', 'Addr 1', 'Line 1'],
  suburb: ['City', 'Town', 'Locality', 'Suburb/Town', 'City/Suburb'],
  state: ['State/Territory', 'Territory', 'Province', 'Region', 'County'],
  postcode: ['Post Code', 'Postal Code', 'ZIP Code', 'ZIP', 'PC'],
  country: ['Nation', 'Country Name'],
  tag_name: ['Tag', 'Asset', 'Asset Name', 'Equipment'],
  tag_number: ['Tag #', 'Tag No', 'Tag Num', 'Tag ID', 'Asset Number', 'Asset #'],
  tag_display_name: ['Tag Label', 'Tag Display'],
  type: ['Kind', 'Category', 'Site Type'],
};

/** QR code addresses: JSON bulk (task IMPORT) and file imports (task QR_IMPORT). */
export const qrCodeImportKind: ImportKind<QrImportRow> = {
  columns: QR_IMPORT_COLUMNS,
  columnLabels: QR_IMPORT_COLUMN_LABELS,
  aliases: { external_reference_id: 'qr_code_external_reference_id', address: 'location', zip: 'postcode', postal_code: 'postcode' },
  synonyms: QR_SYNONYMS,
  requiredColumns: ['location'],
  maxLength: QR_MAX_LENGTH,
  // A row without a location composes it from the address parts (qrcodes/address.ts): a street with a suburb or postcode.
  requiredUnless: {
    location: [
      ['address_line_1', 'suburb'],
      ['address_line_1', 'postcode'],
    ],
  },
  exampleRow: {
    location: '12 Smith Street, Carlton VIC 3053',
    type: 'SITE',
    name: 'Carlton depot',
    qr_code_name: 'Front gate',
    qr_code_external_reference_id: 'SITE-0001',
    address_line_1: '12 Smith Street',
    suburb: 'Carlton',
    state: 'VIC',
    postcode: '3053',
    country: 'Australia',
  },
  prepare: cellsAsText,
  rowSchema: qrImportRowSchema,
  quickParse: quickImportRow,
  echo,
  openWriter: openQrCodeWriter,
  results,
  writtenTables: ['qrcodes', 'qr_code_tags'],
  shadowExtras: [SEARCH_INDEX_SHADOW],
  dryRunNotes: [
    'Nothing was written. The counts compare the rows with the QR codes and tags in this sandbox; the real service compares them with its own, so there a row counted here as inserted may be an update.',
    'Addresses are located by the offline gazetteer here; the real service uses its own geocoder and may locate addresses this check could not.',
  ],
};
