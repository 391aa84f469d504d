/**
 * What users see first, in Chromium at 1280 and 800 px: the demo's live first screen, an attempt
 * in full with links both ways to the inbox, the Attempt column of the inbox, the events across
 * all webhooks, the task duration, and the layout of long names, narrow windows and placeholders.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startDemoMode } from '../../server/demo/demo-mode.ts';
import { createInbox, patchInbox } from '../support/inboxes.ts';
import { jsonBody } from '../support/server.ts';
import { insertTaskRow } from '../support/tasks.ts';
import { waitFor } from '../webhooks/support.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession } from './support/session.ts';

const skip = browserUnavailable();
const WIDTHS = [
  [1280, 800],
  [800, 700],
] as const;

const sideways = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

interface Attempt {
  attempt: number;
  status_code: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  inbox_message_uuid: string | null;
}

describe('What users see first, in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();
  const org = () => server.organizationUuid;
  const credential = () => {
    const c = server.credentials;
    assert.ok(c);
    return `#key=${c.api_key}:${c.api_secret}`;
  };

  test('demo mode opens on a live screen: banner, events in plain words, counters that move, new rows marked, three things to try', async () => {
    const demo = await startDemoMode(server, 1_000);
    try {
      for (const [width, height] of WIDTHS) {
        const page = await session.newPage({ width, height });
        await page.goto(`${server.url}/${credential()}`);
        await page.waitForURL(/\/events$/);
        assert.match(
          await page.getByRole('status').filter({ hasText: 'Demo mode' }).innerText(),
          /simulated check-in, check-out or delivery/,
        );
        const next = page.getByRole('navigation', { name: 'Things to try next' });
        assert.deepEqual(await next.getByRole('link').allInnerTexts(), [
          'Open the demo inbox',
          "Open the flaky app's delivery log",
          'Import a spreadsheet',
        ]);
        // The first two lead to the demo's own inbox and the flaky app's webhook, not to the lists.
        await next.getByRole('link', { name: 'Open the demo inbox' }).and(page.locator('[href^="/inspector/"]')).waitFor();
        await next.getByRole('link', { name: "Open the flaky app's delivery log" }).and(page.locator('[href^="/webhooks/"]')).waitFor();
        const counters = page.getByRole('list', { name: 'Running counters' });
        const first = await counters.innerText();
        const sentence = page.locator('.event-sentence').first();
        await sentence.waitFor({ timeout: 30_000 });
        assert.match(await sentence.innerText(), /^(Check-in|Check-out|Delivery) · [^·]+ · .+\d/, 'event, service and address');
        // Something happens while the screen is open: a new event arrives, marked, and the counters move.
        await page.locator('tr.event-row-new').first().waitFor({ timeout: 30_000 });
        await waitFor('the counters to move', async () => ((await counters.innerText()) !== first ? true : undefined), 30_000);
        assert.match(await counters.innerText(), /\d+\s*events[\s\S]*deliveries ok[\s\S]*deliveries failed[\s\S]*imports/);
        // The four counters: one line at 1280 px, two and two at 800 px; none stretched across the card alone.
        const tiles = await Promise.all((await counters.getByRole('listitem').all()).map((tile) => tile.boundingBox()));
        const lines = new Set(tiles.map((box) => Math.round(box?.y ?? -1)));
        assert.equal(lines.size, width === 1280 ? 1 : 2, `the counters on ${lines.size} line(s) at ${width} px`);
        const widest = Math.max(...tiles.map((box) => box?.width ?? 0));
        const narrowest = Math.min(...tiles.map((box) => box?.width ?? 0));
        assert.ok(widest < 2 * narrowest, `no counter is stretched across the card (${narrowest}–${widest} px)`);
        // The map rings where the last minute's events happened, and says so in words.
        const map = page.getByRole('img', { name: /^Where the demo's events happen\./ });
        await waitFor(
          'a ringed event on the map',
          async () => (Number(await map.getAttribute('data-rings')) >= 1 ? true : undefined),
          30_000,
        );
        const said = (await map.getAttribute('aria-label')) ?? '';
        assert.match(said, /Ringed, just now: (Check-in|Check-out|Delivery) · /);
        assert.equal(await sideways(page), 0, `no sideways scrolling at ${width} px`);
      }
    } finally {
      await demo.stop();
    }
    const page = await session.signedInPage('/');
    await page.waitForURL(/\/tasks$/);
    assert.equal(await page.getByText('Demo mode').count(), 0, 'without demo mode the first screen is the task list');
  });

  test('an attempt in full: request and response side by side, attempts listed, links both ways with the inbox, and the Attempt column', async () => {
    assert.equal((await server.request('/api/settings', jsonBody({ webhook_retry_schedule: 'fast' }, 'PATCH'))).status, 200);
    const inbox = await createInbox(server, { name: 'Retry inbox', response: { status: 503 } });
    const registered = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: org(), url: inbox.url, events: ['service_confirmation.delivery'] }),
    );
    const webhook = (await registered.json()) as { uuid: string };
    const sent = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: org(), event: 'service_confirmation.delivery' }),
    );
    const eventId = ((await sent.json()) as { event: { id: string } }).event.id;
    const deliveries = `/api/webhooks/uuid/${webhook.uuid}/deliveries?organization_uuid=${org()}`;
    const find = async () =>
      (
        (await (await server.request(deliveries)).json()) as {
          items: { delivery_id: string; event_id: string; status: string; attempts: Attempt[] }[];
        }
      ).items.find((d) => d.event_id === eventId);
    await waitFor('two failed attempts', async () => ((await find())?.attempts.length ?? 0) >= 2 || undefined, 30_000);
    await patchInbox(server, inbox.uuid, { response: { status: null } });
    const delivery = await waitFor(
      'the delivery',
      async () => {
        const d = await find();
        return d?.status === 'delivered' && d.attempts.every((a) => a.inbox_message_uuid) ? d : undefined;
      },
      30_000,
    );
    const last = delivery.attempts.at(-1);
    assert.ok(last?.response_body && last.response_headers);
    const n = last.attempt;
    assert.ok(n >= 3);
    await server.request('/api/settings', jsonBody({ webhook_retry_schedule: 'standard' }, 'PATCH'));

    for (const [width, height] of WIDTHS) {
      const page = await session.signedInPage(`/webhooks/${webhook.uuid}?delivery=${delivery.delivery_id}`);
      await page.setViewportSize({ width, height });
      const view = page.getByRole('region', { name: `Attempt ${n}`, exact: true });
      await view.waitFor();
      const attemptsTable = page.getByRole('table', { name: `Attempts of delivery ${delivery.delivery_id}` });
      assert.ok(
        await attemptsTable.evaluate((t) => (t.parentElement ? t.parentElement.scrollWidth <= t.parentElement.clientWidth : false)),
        `the attempts table, "Answer or error" included, fits at ${width} px`,
      );
      const response = view.getByRole('region', { name: `Response of attempt ${n}` });
      assert.match(await response.innerText(), /^Response\s+200/i);
      const headers = await response.getByRole('table', { name: `Response headers of attempt ${n}` }).innerText();
      assert.match(headers, /content-type\s+\S+/);
      assert.equal(
        (await response.getByLabel(`Response body of attempt ${n}`).innerText()).trim(),
        last.response_body.trim(),
        'the whole body',
      );
      const request = view.getByRole('region', { name: `Request of attempt ${n}` });
      assert.match(
        await request.getByRole('table', { name: `Request headers of attempt ${n}` }).innerText(),
        /X-Service-Signature\s+sha256=[0-9a-f]{64}/,
      );
      const [reqBox, resBox] = [await request.boundingBox(), await response.boundingBox()];
      assert.ok(reqBox && resBox);
      if (width >= 1280) assert.ok(Math.abs(reqBox.y - resBox.y) < 2 && reqBox.x < resBox.x, 'side by side');
      else assert.ok(resBox.y > reqBox.y, 'stacked on a narrow window');
      assert.ok(resBox.x + resBox.width <= width, `the response is in view at ${width} px`);
      assert.equal(await sideways(page), 0);

      // The attempts are listed; an earlier one opens in full.
      await page.getByRole('button', { name: 'Show attempt 1 in full' }).click();
      const firstView = page.getByRole('region', { name: 'Attempt 1', exact: true });
      assert.match(await firstView.getByRole('region', { name: 'Response of attempt 1' }).innerText(), /503/);
      assert.match(await firstView.getByLabel('Response body of attempt 1').innerText(), /\S/);

      // Attempt → inbox message → the same attempt again.
      await page.getByRole('button', { name: `Show attempt ${n} in full` }).click();
      await view.getByRole('link', { name: `Open the inbox message of attempt ${n}` }).click();
      await page.waitForURL(new RegExp(`/inspector/${inbox.uuid}/messages/${last.inbox_message_uuid}$`));
      await page.getByRole('link', { name: `Open attempt ${n} in the delivery log` }).click();
      await page.waitForURL(new RegExp(`delivery=${delivery.delivery_id}&attempt=${n}$`));
      await page.getByRole('region', { name: `Attempt ${n}`, exact: true }).waitFor();
      await page
        .getByRole('button', { name: `Show attempt ${n} in full` })
        .and(page.locator('[aria-pressed="true"]'))
        .waitFor();

      // The inbox: one row per attempt, numbered, none flagged as a duplicate.
      await page.goto(`${server.url}/inspector/${inbox.uuid}`);
      const table = page.getByRole('table', { name: 'Messages' });
      await table.getByText(`Attempt ${n}`).waitFor();
      const cells = await table.locator('tbody tr').allInnerTexts();
      for (let i = 1; i <= n; i++)
        assert.ok(
          cells.some((row) => row.includes(`Attempt ${i}`)),
          `a row of attempt ${i}`,
        );
      assert.equal(await table.getByText('Duplicate', { exact: true }).count(), 0, 'retries are not duplicates');
      assert.equal(await sideways(page), 0);
    }
  });

  test('events across all webhooks: in the navigation, in plain words, each delivery linked to its log', async () => {
    for (const [width, height] of WIDTHS) {
      const page = await session.newPage({ width, height });
      await page.goto(`${server.url}/tasks${credential()}`);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events', exact: true }).click();
      await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
      const table = page.getByRole('table', { name: 'Events' });
      await table.waitFor();
      const total = (
        (await (await server.request(`/api/webhook-events?organization_uuid=${org()}&per_page=1`)).json()) as { total: number }
      ).total;
      assert.match(await page.getByText(/of \d+ events/).innerText(), new RegExp(`of ${total} events`));
      const row = table.locator('tbody tr').first();
      assert.match(await row.innerText(), /Delivery · .+ · .+/);
      await row
        .getByRole('link', { name: /Delivered 200/ })
        .first()
        .click();
      await page.waitForURL(/\/webhooks\/[^/?]+\?delivery=/);
      await page.locator('article.delivery-highlighted').waitFor();
      assert.equal(await sideways(page), 0);
    }
  });

  test('tasks show how long they ran, and a running one counts up', async () => {
    const uuid = randomUUID();
    await insertTaskRow(server, uuid, { created_on: new Date(Date.now() - 95_000).toISOString(), metadata: { filename: 'slow.csv' } });
    for (const [width, height] of WIDTHS) {
      const page = await session.newPage({ width, height });
      await page.goto(`${server.url}/tasks${credential()}`);
      const table = page.getByRole('table', { name: 'Background tasks' });
      await table.waitFor();
      const headers = await table.locator('thead th').allInnerTexts();
      const column = headers.indexOf('Duration');
      assert.ok(column > 0, headers.join(' | '));
      const running = table.locator(`tr[data-task-uuid="${uuid}"] td`).nth(column);
      assert.match(await running.innerText(), /^1 min \d\d s…$/);
      const finished = table.locator('tbody tr').filter({ hasText: 'demo-sites.csv' }).locator('td').nth(column);
      assert.match(await finished.innerText(), /^\d+(\.\d+)? (ms|s)$|^\d+ min \d\d s$/);
      const box = await running.boundingBox();
      assert.ok(box && box.x + box.width <= width, `the duration is in view at ${width} px`);
    }
  });

  test('layout: a 120-character name wraps, the Appointments address stays readable at 800 px, placeholders are hints', async () => {
    const longName = `${'N'.repeat(120)}`;
    for (const [width, height] of WIDTHS) {
      const page = await session.newPage({ width, height });
      await page.goto(`${server.url}/qrcodes${credential()}`);
      await page.getByRole('button', { name: 'New QR code' }).click();
      await page.getByLabel('Name', { exact: true }).fill(`${longName}${width}`);
      await page.getByLabel('Address (location)').fill('12 Smith St, Fitzroy VIC 3065');
      await page.getByRole('button', { name: 'Create QR code' }).click();
      const banner = page.getByRole('status').filter({ hasText: /^Created/ });
      await banner.waitFor();
      const fits = await banner.evaluate(
        (el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= el.ownerDocument.documentElement.clientWidth,
      );
      assert.ok(fits, 'the Created notice wraps the name');
      const table = page.getByRole('table', { name: 'QR codes' });
      await table.getByText(`${longName}${width}`).waitFor();
      const actions = table
        .locator('tbody tr')
        .first()
        .getByRole('button', { name: /^Edit / });
      const actionsBox = await actions.boundingBox();
      assert.ok(actionsBox && actionsBox.x + actionsBox.width <= width, `the last column stays in view at ${width} px`);
      assert.equal(await sideways(page), 0);

      await page.goto(`${server.url}/appointments`);
      const schedule = page.getByRole('table', { name: 'Appointments' });
      await schedule.locator('tbody tr').first().waitFor();
      const address = schedule.getByRole('columnheader', { name: 'QR code / tag' });
      const addressBox = await address.boundingBox();
      assert.ok(addressBox && addressBox.width >= 180, `the address column is ${addressBox?.width} px wide`);
      assert.ok(addressBox.x + addressBox.width <= width, 'and in view');
      for (const label of ['From', 'To']) {
        const input = page.getByLabel(label, { exact: true });
        assert.equal(await input.inputValue(), '');
        assert.equal(await input.getAttribute('placeholder'), 'YYYY-MM-DD', 'a format, not a date that looks filled in');
        assert.equal(await input.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el, '::placeholder').fontStyle), 'italic');
      }
    }
  });
});
