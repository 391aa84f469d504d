import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bodyExcerpt } from '../../server/receiver/body-excerpt.ts';
import { BODY_EXCERPT_BYTES } from '../../server/receiver/schemas.ts';

const MAX_JSON = 2 * BODY_EXCERPT_BYTES;

/** Bodies as inboxes get them: text of any script, emoji, control bytes, and bytes that are not UTF-8. */
const bodyArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 3000 }).map((text) => Buffer.from(text, 'utf8')),
  fc.uint8Array({ maxLength: 5000 }).map((bytes) => Buffer.from(bytes)),
  fc.integer({ min: 0, max: 5000 }).map((n) => Buffer.alloc(n, 1)),
);

describe('list excerpts of message bodies', () => {
  it('are the start of the body as text, their JSON at most twice the excerpt bytes, and say when there is more', () => {
    fc.assert(
      fc.property(bodyArb, (body) => {
        const excerpt = bodyExcerpt(body.subarray(0, BODY_EXCERPT_BYTES), body.length, MAX_JSON);
        assert.ok(Buffer.byteLength(JSON.stringify(excerpt.body)) <= MAX_JSON);
        const text = body.toString('utf8');
        assert.ok(text.startsWith(excerpt.body), 'a start of the body as the full message gives it');
        assert.equal(excerpt.body_excerpted, excerpt.body !== text);
        if (excerpt.body_base64 !== null) assert.equal(excerpt.body_base64, body.subarray(0, BODY_EXCERPT_BYTES).toString('base64'));
      }),
      { numRuns: 500 },
    );
  });
});
