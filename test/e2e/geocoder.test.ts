/** Settings > Geocoder in Debian's Chromium against a real server with the shipped offline gazetteer. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ADDRESS_NOT_LOCATED } from '../../server/geocoding/geocoder.ts';
import type { GeocoderAbout } from '../../server/geocoding/schemas.ts';
import { jsonBody } from '../support/server.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable();

describe('Settings: the geocoder panel in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  const geocoderPanel = async (credential?: { api_key: string; api_secret: string }) => {
    const page = await session.signedInPage('/settings', credential);
    const panel = page.getByRole('region', { name: /^Geocoder/ });
    await panel.getByRole('table', { name: 'Countries covered' }).waitFor();
    return { page, panel };
  };

  test('shows what the offline gazetteer covers, from the server, with its data licence', async () => {
    const about = (await (await server.request('/api/geocoder')).json()) as GeocoderAbout;
    const { panel } = await geocoderPanel();
    assert.equal(await panel.getByRole('heading', { level: 2 }).innerText(), 'Geocoder');
    await panel.getByText('Offline GeoNames gazetteer', { exact: true }).waitFor();
    assert.equal(await panel.getByText('Offline', { exact: true }).count(), 1);
    assert.match(
      await panel.getByRole('list', { name: 'Gazetteer size' }).innerText(),
      new RegExp(`${about.places.toLocaleString('en-US')}\\s+places[\\s\\S]*5\\s+countries`),
    );
    const rows = await panel.getByRole('table', { name: 'Countries covered' }).locator('tbody tr').allInnerTexts();
    assert.deepEqual(
      rows.map((r) => r.split('\t')[0]),
      ['Australia', 'United States', 'United Kingdom', 'Canada', 'Italy'],
    );
    const australia = about.countries.find((c) => c.code === 'AU');
    assert.match(
      rows[0] ?? '',
      new RegExp(`AU\\s+${(australia?.places ?? -1).toLocaleString('en-US')}\\s+${(australia?.postcodes ?? -1).toLocaleString('en-US')}`),
    );
    assert.equal(
      await panel.getByRole('link', { name: 'GeoNames postal codes (AU, US, GB, CA, IT)' }).getAttribute('href'),
      'https://www.geonames.org',
    );
    assert.equal(
      await panel.getByRole('link', { name: 'Creative Commons Attribution 4.0' }).getAttribute('href'),
      'https://creativecommons.org/licenses/by/4.0/',
    );
    await panel.getByText(/© GeoNames \(www\.geonames\.org\)\. The GB data contains Royal Mail data/).waitFor();
    await panel.getByText('What the precision of a located address means').click();
    await panel.getByText('Only the postcode was recognised: the middle of its places.').waitFor();
  });

  test('"Try an address": located with coordinates, precision and time zone; not located with the reason and the import row error', async () => {
    const { page, panel } = await geocoderPanel();
    const address = panel.getByLabel('Address', { exact: true });
    await address.fill('12 Smith St, Fitzroy VIC 3065, Australia');
    await address.press('Enter');
    const answer = panel.getByRole('status', { name: 'Where it is' });
    await answer.getByText('Located:').waitFor();
    const located = await answer.innerText();
    assert.match(located, /Located: Fitzroy VIC 3065, Australia/);
    assert.match(located, /-37\.8004, 144\.9745/);
    assert.match(located, /Australia\/Melbourne \(UTC\+1[01]:00 now\)/);
    assert.match(located, /postcode — Suburb, state and postcode agree/);
    assert.match(located, /the address text \(as in an appointment row\)/);

    // Parts, as a QR code file gives them: a suburb in several states, then with its state.
    await panel.getByText(/^Or give the parts/).click();
    await panel.getByLabel('Suburb or city').fill('Richmond');
    await panel.getByLabel('Country').fill('Australia');
    assert.equal(await answer.count(), 0, 'an edit clears the old answer');
    await panel.getByRole('button', { name: 'Locate' }).click();
    await answer.getByText('Not located.').waitFor();
    const refused = await answer.innerText();
    assert.match(refused, /"Richmond" is a place in several states \(NSW, VIC, .*\): add the state or the postcode\./);
    assert.ok(refused.includes(`An import row with this address is excluded with: ${ADDRESS_NOT_LOCATED}`), refused);
    await panel.getByLabel('State').fill('Victoria');
    await panel.getByRole('button', { name: 'Locate' }).click();
    await answer.getByText('Located:').waitFor();
    assert.match(
      await answer.innerText(),
      /Located: Richmond VIC 3121, Australia[\s\S]*place — Found by suburb name and state[\s\S]*the suburb, state, postcode and country fields/,
    );

    await panel.getByText('Show curl to locate this address').click();
    const curl = await panel.getByLabel('curl command').last().innerText();
    assert.match(curl, /\/api\/geocoder\/locate/);
    assert.match(curl, /"suburb":"Richmond"/);

    // Nothing to locate: the server's problem shows under the Address field.
    await panel.getByRole('button', { name: 'Clear' }).click();
    await panel.getByRole('button', { name: 'Locate' }).click();
    const problem = panel.locator('.field-problem');
    await problem.waitFor();
    assert.equal(await problem.innerText(), 'Give an address to locate: a location, or a suburb or postcode.');
    assert.equal(await address.getAttribute('aria-invalid'), 'true');
    await address.fill('Paris');
    assert.equal(await problem.count(), 0, 'typing clears the problem');
    assert.equal(await page.getByRole('alert').count(), 0);
  });

  test('a viewer key can try addresses too', async () => {
    const res = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'Field viewer' }));
    const viewer = (await res.json()) as { api_key: string; api_secret: string };
    const { panel } = await geocoderPanel(viewer);
    await panel.getByLabel('Address', { exact: true }).fill('1 Mitchell St, Darwin NT 0800');
    await panel.getByRole('button', { name: 'Locate' }).click();
    await panel.getByRole('status', { name: 'Where it is' }).getByText('Australia/Darwin').waitFor();
  });
});
