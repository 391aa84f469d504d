import type { Browser } from 'playwright-core';
import { startDemoMode } from '../../../server/demo/demo-mode.ts';
import { createInbox, patchInbox } from '../../support/inboxes.ts';
import { jsonBody, startTestServer } from '../../support/server.ts';
import { waitFor } from '../../webhooks/support.ts';
import { openPage } from './browser.ts';

type Shot = (name: string, target: Pick<import('playwright-core').Page, 'screenshot'>) => Promise<void>;
const SIZES = [
  [1280, 800],
  [800, 700],
] as const;

/** `serve --demo`'s first screen a few seconds in (events arriving), on a server of its own. */
export async function demoFirstScreenShots(browser: Browser, shot: Shot): Promise<void> {
  const server = await startTestServer();
  const demo = await startDemoMode(server, 5_000);
  try {
    const credential = server.credentials;
    if (!credential) throw new Error('no credential');
    for (const [width, height] of SIZES) {
      const gui = await openPage(browser, { width, height });
      await gui.page.goto(`${server.url}/#key=${credential.api_key}:${credential.api_secret}`);
      await gui.page.waitForURL(/\/events$/);
      await gui.page.locator('.event-sentence').nth(2).waitFor({ timeout: 30_000 });
      await shot(`demo-first-screen-${width}`, gui.page);
      await gui.close();
    }
  } finally {
    await demo.stop();
    await server.stop();
  }
}

/** A delivery that failed twice (503) and then went through, its last attempt in full, on a server of its own. */
export async function attemptViewShots(browser: Browser, shot: Shot): Promise<void> {
  const server = await startTestServer({ webhookRetrySchedule: 'fast' });
  try {
    const org = server.organizationUuid;
    const credential = server.credentials;
    if (!credential) throw new Error('no credential');
    const inbox = await createInbox(server, { name: 'Order system', response: { status: 503 } });
    const registered = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: org, url: inbox.url, events: ['service_confirmation.check_in'] }),
    );
    const webhook = ((await registered.json()) as { uuid: string }).uuid;
    await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: org, event: 'service_confirmation.check_in' }),
    );
    const deliveries = `/api/webhooks/uuid/${webhook}/deliveries?organization_uuid=${org}`;
    type Page = { items: { delivery_id: string; status: string; attempts: unknown[] }[] };
    await waitFor('two failed attempts', async () => {
      const page = (await (await server.request(deliveries)).json()) as Page;
      return (page.items[0]?.attempts.length ?? 0) >= 2 ? true : undefined;
    });
    await patchInbox(server, inbox.uuid, { response: { status: null } });
    const delivery = await waitFor('the delivery', async () => {
      const page = (await (await server.request(deliveries)).json()) as Page;
      return page.items[0]?.status === 'delivered' ? page.items[0] : undefined;
    });
    for (const [width, height] of SIZES) {
      const gui = await openPage(browser, { width, height });
      await gui.page.goto(
        `${server.url}/webhooks/${webhook}?delivery=${delivery.delivery_id}#key=${credential.api_key}:${credential.api_secret}`,
      );
      const view = gui.page.locator('.attempt-view');
      await view.waitFor();
      // The whole delivery card: the attempts listed, and the last one in full.
      await shot(`webhook-attempt-view-${width}`, gui.page.locator('.delivery-highlighted'));
      await gui.page.goto(`${server.url}/inspector/${inbox.uuid}`);
      await gui.page.getByRole('table', { name: 'Messages' }).getByText('Attempt 3').waitFor();
      await shot(`inbox-attempt-column-${width}`, gui.page);
      await gui.close();
    }
  } finally {
    await server.stop();
  }
}
