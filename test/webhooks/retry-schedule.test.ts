import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JITTER_FRACTION, maxAttempts, nextRetryDelay, retryDelaysMs } from '../../server/webhooks/retry-schedule.ts';

test('the standard schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then give up', () => {
  const s = 1000;
  assert.deepEqual(retryDelaysMs.standard, [5 * s, 300 * s, 1800 * s, 7200 * s, 18000 * s, 36000 * s, 36000 * s]);
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7].map((n) => nextRetryDelay('standard', n, () => 0)),
    retryDelaysMs.standard,
  );
  assert.equal(nextRetryDelay('standard', 8), null);
  assert.equal(maxAttempts('standard'), 8);
});

test('the fast schedule: 1 s, 2 s, 5 s, 10 s, 30 s', () => {
  assert.deepEqual(retryDelaysMs.fast, [1000, 2000, 5000, 10000, 30000]);
  assert.equal(nextRetryDelay('fast', 6), null);
  assert.equal(maxAttempts('fast'), 6);
});

test('jitter adds at most 10%', () => {
  assert.equal(
    nextRetryDelay('fast', 1, () => 0.999999),
    Math.round(1000 * (1 + JITTER_FRACTION * 0.999999)),
  );
  for (let i = 0; i < 100; i++) {
    const delay = nextRetryDelay('standard', 2) ?? 0;
    assert.ok(delay >= 300_000 && delay <= 330_000);
  }
});
