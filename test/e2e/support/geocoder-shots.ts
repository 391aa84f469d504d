import type { Page } from 'playwright-core';
import type { LookShot } from './shot-run.ts';

/** Settings > Geocoder: the coverage, then "Try an address" located and not located. */
export async function geocoderShots(page: Page, baseUrl: string, shot: LookShot): Promise<void> {
  await page.goto(`${baseUrl}/settings`);
  const section = page.getByRole('region', { name: /^Geocoder/ });
  await section.getByRole('table', { name: 'Countries covered' }).waitFor();
  await section.getByRole('heading', { name: /^Geocoder/ }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('settings-geocoder');
  await section.getByLabel('Address', { exact: true }).fill('12 Smith St, Fitzroy VIC 3065, Australia');
  await section.getByRole('button', { name: 'Locate' }).click();
  await section.getByRole('status', { name: 'Where it is' }).waitFor();
  await section.getByRole('heading', { name: 'Try an address' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('state-settings-geocoder-located');
  await section.getByText(/^Or give the parts/).click();
  await section.getByLabel('Suburb or city').fill('Richmond');
  await section.getByLabel('Country').fill('Australia');
  await section.getByRole('button', { name: 'Locate' }).click();
  await section.getByRole('status', { name: 'Where it is' }).filter({ hasText: 'Not located' }).waitFor();
  await section.getByRole('heading', { name: 'Try an address' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('state-settings-geocoder-not-located');
}
