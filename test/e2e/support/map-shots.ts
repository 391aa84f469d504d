import type { Browser } from 'playwright-core';
import { startDemoMode } from '../../../server/demo/demo-mode.ts';
import { startTestServer } from '../../support/server.ts';
import { openPage } from './browser.ts';

type Shot = (name: string, target: Pick<import('playwright-core').Page, 'screenshot'>) => Promise<void>;
const SIZES = [
  [1280, 900],
  [800, 900],
] as const;

/** The map of the demo's 300 sites: on the QR codes page, and on the task page of the import that placed them (a server of its own). */
export async function mapShots(browser: Browser, shot: Shot): Promise<void> {
  const server = await startTestServer();
  const demo = await startDemoMode(server, 3_600_000);
  try {
    const credential = server.credentials;
    if (!credential) throw new Error('no credential');
    const tasks = (await (
      await server.request(`/api/background-tasks?organization_uuid=${server.organizationUuid}&per_page=100`)
    ).json()) as { items: { uuid: string; task_type: string; metadata: { filename?: string } | null }[] };
    const sites = tasks.items.find((task) => task.metadata?.filename === 'demo-sites.csv');
    if (!sites) throw new Error('the demo imported no sites');
    for (const [width, height] of SIZES) {
      const gui = await openPage(browser, { width, height });
      const map = gui.page.getByRole('region', { name: 'Map' });
      await gui.page.goto(`${server.url}/qrcodes#key=${credential.api_key}:${credential.api_secret}`);
      await map.locator('canvas[data-outlines="drawn"]').waitFor();
      await shot(`map-qrcodes-${width}`, map);
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
