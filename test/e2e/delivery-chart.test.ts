/**
 * Issue 42 in Chromium: the webhook page draws its last hour of attempts (uPlot on a canvas) and
 * says in words what the bars show; a new attempt redraws it live.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deliveryMix } from '../support/delivery-mix.ts';
import { browserUnavailable } from './support/browser.ts';
import { suiteGuiSession, waitForLive } from './support/session.ts';

const skip = browserUnavailable();

/** What the test reads of the chart's canvas (the tests compile without the DOM's types). */
interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
}

describe('The delivery chart in Chromium', { skip: skip ?? false }, () => {
  const { session, server } = suiteGuiSession();

  test('the webhook page draws the last hour and its summary states the attempts; a new delivery updates it live', async () => {
    const mix = await deliveryMix(server);
    try {
      const page = await session.signedInPage(`/webhooks/${mix.webhook.uuid}`);
      const chart = page.getByRole('region', { name: 'Last hour' });
      const summary = chart.locator('.minute-chart-summary');
      await summary.filter({ hasText: /^Last hour: 2 delivered, 2 retried, 1 failed; mean answer \d+ ms\.$/ }).waitFor();
      const drawn = await chart.locator('canvas').evaluate((element) => {
        const canvas = element as unknown as Canvas;
        const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? new Uint8ClampedArray();
        let painted = 0;
        for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] ?? 0) > 0) painted++;
        return { width: canvas.width, painted };
      });
      assert.ok(drawn.width > 300, `the canvas spans the panel (${drawn.width} px)`);
      assert.ok(drawn.painted > 200, `bars and axes are painted (${drawn.painted} pixels)`);
      assert.equal(await chart.locator('.minute-chart-canvas').getAttribute('aria-hidden'), 'true', 'screen readers get the summary');
      const keyText = await chart.locator('.minute-chart-key').innerText();
      assert.match(keyText, /Delivered[\s\S]*Retried[\s\S]*Failed[\s\S]*Mean answer time/);

      await waitForLive(page);
      const height = () => chart.evaluate((panel) => panel.getBoundingClientRect().height);
      const before = await height();
      await mix.send();
      await summary.filter({ hasText: /^Last hour: 3 delivered, 2 retried, 1 failed;/ }).waitFor({ timeout: 10_000 });
      assert.equal(await height(), before, 'the redrawn chart keeps its height: the deliveries below do not move');
    } finally {
      await mix.close();
    }
  });
});
