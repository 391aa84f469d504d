/**
 * The manual's screenshots of the charts (docs/images/chart-*.png) from a real `serve --demo`
 * server in Chromium at 1280 px, light and dark, once the flaky app has retried a few deliveries:
 *   node test/e2e/chart-doc-shots.ts [OUT_DIR]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServe } from '../support/cli.ts';
import { waitFor } from '../webhooks/support.ts';
import { launchBrowser, openPage } from './support/browser.ts';
import { prepareShotRun, shotWriter } from './support/shot-run.ts';

const outDir = await prepareShotRun(process.argv[2] ?? 'docs/images');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-chart-shots-'));
const served = await spawnServe(['--data-dir', dataDir, '--demo', '--demo-interval', '2']);
const browser = await launchBrowser();
try {
  const link = await waitFor(
    'the sign-in link',
    () => /Sign in\s+(http:\/\/[^/\s]+)\/#key=(\S+)/.exec(served.output()) ?? undefined,
    60_000,
  );
  const [, base, key] = link;
  const api = async <T>(pathname: string) =>
    (await (await fetch(`${base}${pathname}`, { headers: { authorization: `Bearer ${key}` } })).json()) as T;
  const { organization_uuid: org } = await api<{ organization_uuid: string }>('/api/session');
  const inboxes = await api<{ items: { name: string; url: string }[] }>(`/api/inboxes?organization_uuid=${org}`);
  const flakyUrl = inboxes.items.find((i) => i.name === 'Flaky app')?.url;
  const webhooks = await api<{ items: { uuid: string; url: string }[] }>(`/api/webhooks?organization_uuid=${org}`);
  const flaky = webhooks.items.find((w) => w.url === flakyUrl);
  if (!flaky) throw new Error('no webhook to the flaky app');
  await waitFor(
    'three deliveries retried and delivered',
    async () => {
      const stats = await api<{ totals: { delivered: number; retried: number } }>(
        `/api/webhooks/uuid/${flaky.uuid}/delivery-stats?organization_uuid=${org}`,
      );
      return stats.totals.retried >= 6 && stats.totals.delivered >= 10 ? true : undefined;
    },
    120_000,
  );
  const shot = shotWriter(outDir);
  for (const scheme of ['light', 'dark'] as const) {
    const gui = await openPage(browser, { width: 1280, height: 800, colorScheme: scheme });
    await gui.page.goto(`${base}/webhooks/${flaky.uuid}#key=${key}`);
    const chart = gui.page.getByRole('region', { name: 'Last hour' });
    await chart
      .locator('.minute-chart-summary')
      .filter({ hasText: /retried/ })
      .waitFor();
    await shot(`chart-webhook-deliveries-1280-${scheme}`, chart);
    await gui.page.goto(`${base}/events`);
    const counters = gui.page.getByRole('region', { name: 'Counters' });
    await counters
      .locator('.minute-chart-summary')
      .filter({ hasText: /events/ })
      .waitFor();
    await shot(`chart-events-per-minute-1280-${scheme}`, counters);
    await gui.close();
  }
} finally {
  await browser.close();
  await served.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
