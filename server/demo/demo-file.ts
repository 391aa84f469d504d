import { sampleAddresses } from '../geocoding/samples.ts';

const STREETS = [
  'High St',
  'Station Rd',
  'Church St',
  'Main Rd',
  'Park Ave',
  'Victoria St',
  'King St',
  'Bridge Rd',
  'Queen St',
  'Mill Lane',
];
const SITE_KINDS = ['Depot', 'Clinic', 'Community Centre', 'Warehouse', 'Library', 'Pool', 'Office', 'School'];

/** Rows a field admin gets wrong, each excluded by the import with the reason shown in the demo. */
const BAD_ROWS = [
  ['', 'Unknown site', '12 Nowhere Rd', 'Atlantis', 'ZZ', '99999', 'Australia'],
  ['', 'Typo in suburb', '3 Short St', 'Melborne', 'VIC', '', 'Australia'],
  ['', 'Missing address', '', '', '', '', ''],
  ['asdf qwerty', 'Keyboard mash', '', '', '', '', ''],
  ['', 'Wrong country', '1 Rue de Rivoli', 'Paris', '', '75001', 'France'],
];

export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A QR code address file as a field admin would prepare it: `count` real Australian sites across
 * many suburbs, each with a tag, plus a few rows that the import will exclude.
 */
export function demoQrCsv(count: number): string {
  const header = [
    'location',
    'name',
    'address_line_1',
    'suburb',
    'state',
    'postcode',
    'country',
    'qr_code_external_reference_id',
    'tag_name',
    'tag_number',
  ];
  const rows = sampleAddresses(count).map((place, i) => {
    const kind = SITE_KINDS[i % SITE_KINDS.length] ?? 'Site';
    const street = `${(i % 180) + 1} ${STREETS[i % STREETS.length] ?? 'High St'}`;
    const reference = `SITE-${String(i + 1).padStart(4, '0')}`;
    return [
      '',
      `${titleCase(place.suburb)} ${kind}`,
      street,
      place.suburb,
      place.state,
      place.postcode,
      'Australia',
      reference,
      'Site',
      reference,
    ];
  });
  const bad = BAD_ROWS.map((row, i) => [...row, `BAD-${i + 1}`, '', '']);
  const all = [...rows.slice(0, Math.floor(count / 2)), ...bad, ...rows.slice(Math.floor(count / 2))];
  return [header, ...all].map((row) => row.map(csvCell).join(',')).join('\r\n');
}

function titleCase(text: string): string {
  return text.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());
}
