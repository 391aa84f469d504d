/**
 * The map of QR codes in Chromium: an import of sites in two states is drawn on its task page in the
 * legend's colours (light and dark), "Zoom to" a state shows that state's points only, a click on a
 * point opens its QR code, and so does the keyboard; the Imports page's result has the map too.
 * Pixels are read back from the canvas.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { fileUpload, TINY_GEOCODER_MODULE, waitForTask } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { browserUnavailable, chooseCsvFile } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable() ?? false;

// Sydney, Melbourne and Carlton agree with their postcodes; Bondi's postcode is wrong (located by suburb name); one row cannot be placed.
const SITES = `name,location
Harbour,"1 George St, Sydney NSW 2000"
Beach,"2 Campbell Pde, Bondi NSW 2999"
Flinders,"3 Flinders St, Melbourne VIC 3000"
Lygon,"4 Lygon St, Carlton VIC 3053"
Lost,Nowhere at all
`;

/** The little of a canvas the test reads (the tests compile without the DOM's types). */
interface Canvas {
  width: number;
  height: number;
  clientWidth: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}
type Rgb = [number, number, number];

/** Each legend entry's colour, as its swatch is painted. */
async function legendColours(page: Page): Promise<Record<string, Rgb>> {
  const colours: Record<string, Rgb> = {};
  for (const item of await page.locator('.qr-map-legend li').all()) {
    const key = (await item.getAttribute('data-precision')) ?? '';
    const css = await item
      .locator('.qr-map-swatch')
      .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor ?? '');
    const rgb = /rgb\((\d+), (\d+), (\d+)\)/.exec(css);
    assert.ok(rgb, `a swatch colour: ${css}`);
    colours[key] = [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  }
  return colours;
}

/** For each colour: how many canvas pixels have it exactly (a point's centre does), and the CSS position of the first. */
function findColours(page: Page, colours: Record<string, Rgb>) {
  return page.locator('.qr-map canvas').evaluate((element, wanted) => {
    const canvas = element as unknown as Canvas;
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const ratio = canvas.width / canvas.clientWidth;
    const found: Record<string, { count: number; x: number; y: number }> = {};
    for (const [key, [r, g, b]] of Object.entries(wanted)) {
      const hit = { count: 0, x: -1, y: -1 };
      for (let i = 0; i < data.length; i += 4) {
        if (data[i] !== r || data[i + 1] !== g || data[i + 2] !== b) continue;
        if (hit.count++ === 0) Object.assign(hit, { x: ((i / 4) % canvas.width) / ratio, y: Math.floor(i / 4 / canvas.width) / ratio });
      }
      found[key] = hit;
    }
    return found;
  }, colours);
}

async function pixelsPerLegendColour(page: Page): Promise<Record<string, number>> {
  const found = await findColours(page, await legendColours(page));
  return Object.fromEntries(Object.entries(found).map(([key, hit]) => [key, hit.count]));
}

/** The CSS position (relative to the canvas) of a pixel in this legend entry's colour. */
async function pointOf(page: Page, precision: string): Promise<{ x: number; y: number }> {
  const colour = (await legendColours(page))[precision];
  assert.ok(colour, `${precision} is in the legend`);
  const hit = (await findColours(page, { [precision]: colour }))[precision];
  assert.ok(hit && hit.count > 0, `a ${precision} point is drawn`);
  return { x: hit.x, y: hit.y };
}

const drawn = (page: Page) => page.locator('.qr-map canvas[data-outlines="drawn"]').waitFor();

describe('the map of QR codes', { skip }, () => {
  const { session, server } = suiteGuiSession({ imports: { geocoderModule: TINY_GEOCODER_MODULE } });

  it("draws an import's rows by precision, zooms to a state, and opens a point's QR code", async () => {
    const accepted = await server.request(
      '/api/qrcodes/bulk',
      fileUpload(SITES, 'sites.csv', { organization_uuid: server.organizationUuid }),
    );
    assert.equal(accepted.status, 202, await accepted.clone().text());
    const { background_task_uuid: uuid } = (await accepted.json()) as { background_task_uuid: string };
    assert.equal((await waitForTask(server, uuid)).status, 'COMPLETED');

    const page = await session.signedInPage(`/tasks/${uuid}`);
    const map = page.getByRole('img', { name: /Where the rows of this import landed/ });
    await map.waitFor();
    await drawn(page);
    const summary = (await map.getAttribute('aria-label')) ?? '';
    assert.match(summary, /Map of 4 QR codes\. By state: NSW 2, VIC 2\./);
    assert.match(summary, /Located by: Postcode, suburb and state agree 3, Suburb name; postcode missing or different 1\./);
    await page.getByRole('list', { name: 'Rows not on the map' }).getByText('1 row was excluded').waitFor();

    const legend = page.getByRole('list', { name: 'Located by' });
    await legend.getByText('Postcode, suburb and state agree (3)').waitFor();
    await legend.getByText('Suburb name; postcode missing or different (1)').waitFor();
    const all = await pixelsPerLegendColour(page);
    assert.ok((all.postcode ?? 0) > 0 && (all.place ?? 0) > 0, `each legend colour is on the map: ${JSON.stringify(all)}`);

    await page.getByLabel('Zoom to').selectOption('VIC');
    await page.locator('.qr-map canvas[data-view="VIC"]').waitFor();
    const victoria = await pixelsPerLegendColour(page);
    assert.ok((victoria.postcode ?? 0) > 0, 'Melbourne and Carlton are in view');
    assert.equal(victoria.place, 0, 'Bondi (NSW) is out of view');
    assert.match((await map.getAttribute('aria-label')) ?? '', /Zoomed to VIC/);

    await page.getByLabel('Zoom to').selectOption('NSW');
    await page.locator('.qr-map canvas[data-view="NSW"]').waitFor();
    const bondi = await pointOf(page, 'place');
    await map.click({ position: bondi });
    await page.waitForURL(/\/qrcodes\?open=/);
    const form = page.getByRole('form', { name: 'Edit Beach' });
    await form.waitFor();
    assert.equal(await form.getByLabel('Address (location)').inputValue(), '2 Campbell Pde, Bondi NSW 2999');

    // The QR codes page has the map of the whole organization; dark mode draws in the dark legend's colours.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('img', { name: /Where the QR codes of the organization are\. Map of 4 QR codes/ }).waitFor();
    await drawn(page);
    const dark = await pixelsPerLegendColour(page);
    assert.ok((dark.postcode ?? 0) > 0 && (dark.place ?? 0) > 0, `dark legend colours are on the map: ${JSON.stringify(dark)}`);
  });

  it('takes the keyboard: Tab to the map, arrows and + between points and states, Enter opens the QR code', async () => {
    const page = await session.signedInPage('/qrcodes');
    await drawn(page);
    await page.getByLabel('Zoom to').focus();
    await page.keyboard.press('Tab');
    const map = page.getByRole('application', { name: 'Where the QR codes of the organization are: 4 points' });
    assert.equal(await map.evaluate((el) => el === el.ownerDocument.activeElement), true, 'Tab reaches the map');
    assert.match((await map.getAttribute('aria-describedby')) ?? '', /.+/);
    const focused = page.locator(':focus');
    const nameOfFocused = async () => (await focused.getAttribute('aria-label')) ?? '';
    /** The keyboard's point, once it is on the QR code of this name. */
    const focusedPoint = (name: string) => page.locator(`.qr-map-cursor:focus[aria-label^="${name}:"]`);

    // Home: the first point in reading order (Sydney and Bondi are north of Melbourne), then → the nearest one east.
    await page.keyboard.press('Home');
    await focusedPoint('Harbour').waitFor();
    assert.equal(
      await nameOfFocused(),
      'Harbour: 1 George St, Sydney NSW 2000. Located by: Postcode, suburb and state agree. Point 1 of 4 in view.',
    );
    await page.keyboard.press('ArrowRight');
    await focusedPoint('Beach').waitFor();
    assert.match(
      await nameOfFocused(),
      /^Beach: 2 Campbell Pde, Bondi NSW 2999\. Located by: Suburb name; postcode missing or different\. Point 2 of 4/,
    );
    // Page Down and Page Up walk every point in reading order: Sydney's two, then Melbourne's two.
    await page.keyboard.press('PageDown');
    await page.locator('.qr-map-cursor:focus[aria-label$="Point 3 of 4 in view."]').waitFor();
    assert.match(await nameOfFocused(), /^(Flinders|Lygon): /);
    await page.keyboard.press('PageUp');
    await focusedPoint('Beach').waitFor();

    // + zooms to the point's state; the ring stays on the point, which is drawn under it.
    await page.keyboard.press('+');
    await page.locator('.qr-map canvas[data-view="NSW"]').waitFor();
    await focusedPoint('Beach').waitFor();
    assert.match(await nameOfFocused(), /\. Point 2 of 2 in view\.$/, 'counted among the points of the new view');
    const ring = await focused.boundingBox();
    assert.ok(ring, 'the focused point is shown');
    const canvas = page.getByRole('img', { name: /Where the QR codes of the organization are/ });
    const frame = await canvas.boundingBox();
    assert.ok(frame);
    const under = await canvas.evaluate(
      (element, at) => {
        const c = element as unknown as Canvas;
        const ratio = c.width / c.clientWidth;
        return [...c.getContext('2d').getImageData(Math.round(at.x * ratio), Math.round(at.y * ratio), 1, 1).data].slice(0, 3);
      },
      { x: ring.x + ring.width / 2 - frame.x, y: ring.y + ring.height / 2 - frame.y },
    );
    assert.deepEqual(under, (await legendColours(page)).place, 'the ring is around the Bondi point');

    await page.keyboard.press('ArrowLeft');
    await focusedPoint('Harbour').waitFor();
    await page.keyboard.press('ArrowRight');
    await focusedPoint('Beach').waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/qrcodes\?open=/);
    const form = page.getByRole('form', { name: 'Edit Beach' });
    await form.waitFor();
    assert.equal(await form.evaluate((el) => el.contains(el.ownerDocument.activeElement)), true, 'the focus is in the opened form');

    // − zooms out again; Esc leaves the point for the map.
    await map.focus();
    await page.keyboard.press('-');
    await page.locator('.qr-map canvas[data-view="all"]').waitFor();
    await page.keyboard.press('End');
    await page.locator('.qr-map-cursor:focus').waitFor();
    await page.keyboard.press('Escape');
    assert.equal(await map.evaluate((el) => el === el.ownerDocument.activeElement), true, 'Esc goes back to the map');
  });

  it("opens a point's QR code read only for a viewer key", async () => {
    const res = await server.request('/api/api-keys', jsonBody({ role: 'viewer', name: 'Field viewer' }));
    const viewer = (await res.json()) as { api_key: string; api_secret: string };
    const page = await session.signedInPage('/qrcodes', viewer);
    const map = page.getByRole('img', { name: /Where the QR codes of the organization are/ });
    await drawn(page);
    await page.getByLabel('Zoom to').selectOption('NSW');
    await page.locator('.qr-map canvas[data-view="NSW"]').waitFor();
    await map.click({ position: await pointOf(page, 'place') });
    const details = page.getByRole('region', { name: 'Beach' });
    await details.getByText('2 Campbell Pde, Bondi NSW 2999').waitFor();
    await details.getByText('place', { exact: true }).waitFor();
    assert.equal(await page.getByRole('form', { name: 'Edit Beach' }).count(), 0, 'no edit form for a viewer');
    await details.getByRole('button', { name: 'Close' }).click();
    await details.waitFor({ state: 'detached' });
    assert.doesNotMatch(page.url(), /open=/);
  });
  it("shows where an import's rows landed in its result on the Imports page, the excluded row beside the map", async () => {
    const page = await session.signedInPage('/imports');
    await chooseCsvFile(page, 'hobart.csv', 'name,location\nHobart office,"1 Elizabeth St, Hobart TAS 7000"\nLost,Nowhere at all\n');
    await page.getByRole('button', { name: 'Start the import' }).click();
    const result = page.getByRole('region', { name: 'Import finished' });
    await result.waitFor({ timeout: 60_000 });
    const map = result.getByRole('img', { name: /^Where the rows of this import landed\. Map of 1 QR code\. By state: TAS 1\./ });
    await map.waitFor();
    await result.locator('canvas[data-outlines="drawn"]').waitFor();
    assert.ok(((await pixelsPerLegendColour(page)).postcode ?? 0) > 0, 'the Hobart point is drawn');
    const excluded = result.getByRole('list', { name: 'Rows not on the map' }).getByRole('link', { name: 'see Excluded rows' });
    const target = ((await excluded.getAttribute('href')) ?? '').replace('#', '');
    assert.equal(await result.locator(`[id="${target}"]`).innerText(), 'Excluded rows', 'the link leads to the list of excluded rows');
  });
});
