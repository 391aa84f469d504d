import type { Browser } from 'playwright-core';
import { startDemoMode } from '../../../server/demo/demo-mode.ts';
import { fileUpload, waitForTask } from '../../support/imports.ts';
import { startTestServer } from '../../support/server.ts';
import { openPage } from './browser.ts';

type Shot = (name: string, target: Pick<import('playwright-core').Page, 'screenshot'>) => Promise<void>;
const SIZES = [
  [1280, 900],
  [800, 900],
] as const;

/** A field admin's file: most rows agree, some postcodes are wrong or alone, one site is abroad, one cannot be placed. */
const MIXED_SITES = `name,location
Depot Sydney,"1 George St, Sydney NSW 2000"
Depot Parramatta,"20 Church St, Parramatta NSW 2150"
Depot Newcastle,"5 Hunter St, Newcastle NSW 2300"
Depot Wollongong,"8 Crown St, Wollongong NSW 2500"
Depot Dubbo,"3 Macquarie St, Dubbo NSW 2830"
Depot Bondi,"2 Campbell Pde, Bondi NSW 2999"
Depot Perth?,"7 Hay St, Sydney WA 6000"
Depot Albury,"Albury 2640"
Depot Melbourne,"10 Collins St, Melbourne VIC 3000"
Depot Geelong,"4 Moorabool St, Geelong VIC 3220"
Depot London,"10 Downing St, London SW1A 2AA, United Kingdom"
Depot Nowhere,"Nowhere at all"
`;

/** The map of the demo's 300 sites on the QR codes page, and of an import of mixed sites on its task page (a server of its own). */
export async function mapShots(browser: Browser, shot: Shot): Promise<void> {
  const server = await startTestServer();
  const demo = await startDemoMode(server, 3_600_000);
  try {
    const credential = server.credentials;
    if (!credential) throw new Error('no credential');
    const accepted = await server.request(
      '/api/qrcodes/bulk',
      fileUpload(MIXED_SITES, 'depots.csv', { organization_uuid: server.organizationUuid }),
    );
    const sites = await waitForTask(server, ((await accepted.json()) as { background_task_uuid: string }).background_task_uuid);
    for (const [width, height] of SIZES) {
      const gui = await openPage(browser, { width, height });
      const map = gui.page.getByRole('region', { name: 'Map' });
      await gui.page.goto(`${server.url}/qrcodes#key=${credential.api_key}:${credential.api_secret}`);
      await map.locator('canvas[data-outlines="drawn"]').waitFor();
      await shot(`map-qrcodes-${width}`, map);
      process.stdout.write(`the map's summary: ${await map.getByRole('img').getAttribute('aria-label')}\n`);
      await gui.page.goto(`${server.url}/tasks/${sites.uuid}`);
      await map.locator('canvas[data-outlines="drawn"]').waitFor();
      await shot(`map-import-${width}`, map);
      await gui.close();
    }
  } finally {
    await demo.stop();
    await server.stop();
  }
}
