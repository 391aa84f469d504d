/**
 * The verifier docs/webhooks.md shows ("Wire format") is run as written against every broken
 * variant the inspector can send: as the page says, it refuses all but the stale envelope.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { variants } from '../../server/receiver/broken-variants.ts';
import { seal } from '../../server/wire-format/seal.ts';
import { envelope } from '../support/deliveries.ts';

type OpenDelivery = (rawBody: string, signatureHeader: string | undefined, secret: string) => { id: string };

const PAGE = path.resolve(import.meta.dirname, '../../docs/webhooks.md');
const SECRET = 'b7c1e0f2a3d4958677a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0';

describe('the verifier of docs/webhooks.md', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-doc-verifier-'));
  let openDelivery: OpenDelivery;
  before(async () => {
    const blocks = [...fs.readFileSync(PAGE, 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    const sample = blocks.find((block) => block.includes('export function openDelivery'));
    assert.ok(sample, 'the page shows openDelivery');
    const file = path.join(dir, 'verifier.mjs');
    fs.writeFileSync(file, sample);
    ({ openDelivery } = (await import(pathToFileURL(file).href)) as { openDelivery: OpenDelivery });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('opens a delivery sealed with the secret', () => {
    const plaintext = JSON.stringify(envelope());
    const sealed = seal(plaintext, SECRET);
    assert.deepEqual(openDelivery(sealed.body, sealed.signatureHeader, SECRET), JSON.parse(plaintext));
  });

  it('refuses every broken variant but the stale envelope, as the page says', () => {
    const plaintext = Buffer.from(JSON.stringify(envelope()), 'utf8');
    const accepted = variants
      .filter((variant) => {
        const built = variant.build(plaintext, SECRET);
        assert.notEqual(typeof built, 'string', `${variant.id} can be built`);
        if (typeof built === 'string') return false;
        try {
          openDelivery(built.body, built.signatureHeader ?? undefined, SECRET);
          return true;
        } catch {
          return false;
        }
      })
      .map((variant) => variant.id);
    assert.deepEqual(accepted, ['stale_envelope']);
  });
});
