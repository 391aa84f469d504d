import { createHash } from 'node:crypto';

/** A UUID that is always the same for the same organization, kind and key (name-based, version 5 layout). */
export function stableUuid(organizationUuid: string, kind: string, key: string): string {
  const hash = createHash('sha1').update(`${organizationUuid}\u0000${kind}\u0000${key}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const demoCompanies = ['Harbourside Facility Services', 'Southern Cross Property Care', 'Bayline Maintenance Group'];

export const demoWorkers = [
  { firstname: 'Mia', lastname: 'Nguyen' },
  { firstname: 'Liam', lastname: "O'Connor" },
  { firstname: 'Priya', lastname: 'Raman' },
];

export const demoServices = [
  { name: 'Gutter Cleaning', code: 'GUT-CLN', categories: ['Exterior', 'Maintenance'] },
  { name: 'Window Cleaning', code: 'WIN-CLN', categories: ['Cleaning', 'Exterior'] },
  { name: 'Lawn Mowing', code: 'LAWN-MOW', categories: ['Gardening'] },
  { name: 'Pest Inspection', code: 'PEST-INS', categories: ['Inspection', 'Compliance'] },
  { name: 'Smoke Alarm Test', code: 'SMK-TST', categories: ['Safety', 'Compliance'] },
  { name: 'Parcel Delivery', code: 'PCL-DLV', categories: ['Logistics'] },
];

export const demoQuestions = [
  'How would you rate the quality of the work?',
  'How would you rate the punctuality of the visit?',
  'How likely are you to book this service again?',
];

export const demoNotes: Record<'CHECK_IN' | 'CHECK_OUT' | 'DELIVERY', string[]> = {
  CHECK_IN: ['Arrived on site, tenant let me in.', 'On site; gate code worked.', 'Checked in at reception.'],
  CHECK_OUT: [
    'Job complete, area left clean.',
    'Finished; photos of the completed work attached.',
    'All items done, follow-up not needed.',
  ],
  DELIVERY: ['Left with the building manager.', 'Delivered to the front desk, signed by reception.', 'Left at the door as instructed.'],
};

/** The QR code that simulate creates in an organization that has none yet. */
export const demoQrCode = {
  type: 'SITE',
  name: 'Harbour View Apartments',
  location: '88 Southbank Boulevard, Southbank VIC 3006, Australia',
  address_line_1: '88 Southbank Boulevard',
  suburb: 'Southbank',
  state: 'VIC',
  postcode: '3006',
  country: 'AU',
  latitude: -37.8245,
  longitude: 144.964,
  timezone_name: 'Australia/Melbourne',
  qr_code_name: 'Harbour View main entrance',
  tag: { tag_name: 'HVA', tag_number: '0001', tag_display_name: 'HVA-0001' },
};

/** Where a worker is assumed to be when the QR code has no coordinates: Melbourne CBD. */
export const fallbackPosition = { lat: -37.8136, lng: 144.9631 };

export function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
