import type { Browser, Route } from 'playwright-core';
import { startDemoMode } from '../../../server/demo/demo-mode.ts';
import { startTestServer } from '../../support/server.ts';
import { inEveryLook } from './shot-run.ts';

/** Settings > Demo data (the section, the question, the progress, the result) and the demo week, on a server of its own. */
export async function demoShots(browser: Browser, outDir: string): Promise<void> {
  const server = await startTestServer();
  try {
    const demo = await startDemoMode(server, 3_600_000);
    await demo.stop();
    const credential = server.credentials;
    if (!credential) throw new Error('no credential');
    await inEveryLook(browser, outDir, async (gui, shot) => {
      const page = gui.page;
      await page.goto(`${server.url}/appointments#key=${credential.api_key}:${credential.api_secret}`);
      await page.getByRole('table', { name: 'Appointments' }).waitFor();
      await shot('demo-appointments');
      await page.goto(`${server.url}/settings`);
      const section = page.getByRole('region', { name: 'Demo data' });
      await section.getByRole('button', { name: 'Reset demo data…' }).scrollIntoViewIfNeeded();
      await shot('demo-settings-section');
      await section.getByRole('button', { name: 'Reset demo data…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reset the demo data?' });
      await dialog.waitFor();
      await shot('demo-reset-dialog');
      let held: Route | undefined;
      await page.route('**/api/demo/reset', (route) => {
        held = route;
      });
      await dialog.getByRole('button', { name: 'Delete and reset' }).click();
      await dialog.getByRole('progressbar').waitFor();
      await shot('demo-reset-progress');
      while (!held) await new Promise((resolve) => setTimeout(resolve, 10));
      await held.continue();
      const result = section.getByRole('region', { name: 'The demo data is ready' });
      await result.waitFor();
      await page.unroute('**/api/demo/reset');
      await result.scrollIntoViewIfNeeded();
      await shot('demo-reset-result');
    });
  } finally {
    await server.stop();
  }
}
