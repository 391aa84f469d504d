/**
 * The journeys' screenshots come from the real app: the script walks each journey (starting the
 * app the README's way) in Chromium, and every image of docs/images/journeys is one it makes.
 * A journey that no longer works (a renamed button, a page that fails) fails here.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { JOURNEY_IMAGES, takeJourneyScreenshots } from '../../scripts/journey-screenshots.ts';
import { browserUnavailable } from '../e2e/support/browser.ts';

it('walks the three journeys and makes every screenshot the journey pages show', { skip: browserUnavailable() ?? false }, async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-journeys-'));
  try {
    const made = (await takeJourneyScreenshots(out)).map((file) => path.basename(file)).sort();
    const committed = fs.readdirSync(JOURNEY_IMAGES).sort();
    assert.deepEqual(committed, made, 'docs/images/journeys holds exactly what npm run docs:screenshots makes');
    for (const file of made) assert.ok(fs.statSync(path.join(out, file)).size > 10_000, `${file} is a real screenshot`);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
});
