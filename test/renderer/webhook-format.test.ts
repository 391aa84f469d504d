import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatDuration, microsToIso, untilText, urlHint } from '../../renderer/src/api/webhook-format.ts';

describe('webhook page formatting', () => {
  test('webhook timestamps (UTC, microseconds) become ISO instants', () => {
    assert.equal(microsToIso('2026-11-21 20:14:21.123456'), '2026-11-21T20:14:21.123Z');
    assert.equal(microsToIso('2026-11-21 20:14:21.1'), '2026-11-21T20:14:21.100Z');
    assert.equal(microsToIso('2026-11-21 20:14:21'), '2026-11-21T20:14:21.000Z');
    assert.equal(
      Date.parse(microsToIso('2026-11-21 20:14:21.123456')),
      Date.UTC(2026, 10, 21, 20, 14, 21, 123),
      'read as UTC, not local time',
    );
    assert.equal(microsToIso('yesterday'), 'yesterday', 'anything else is shown as it came');
  });

  test('the URL hint follows the documented rules', () => {
    assert.equal(urlHint(''), 'empty');
    assert.equal(urlHint('https://example.com/hooks'), 'https');
    for (const url of [
      'http://127.0.0.1:9000/hooks',
      'http://localhost/x',
      'http://[::1]:8080/',
      'http://127.3.4.5/',
      'http://app.localhost/',
    ]) {
      assert.equal(urlHint(url), 'loopback-http', url);
    }
    assert.equal(urlHint('http://hooks.example.com/receiver'), 'remote-http');
    assert.equal(urlHint('http://192.168.1.20/hooks'), 'remote-http');
    assert.equal(urlHint('ftp://example.com/'), 'other');
    assert.equal(urlHint('not a url'), 'other');
  });

  test('durations and the wait until the next attempt read plainly', () => {
    assert.equal(formatDuration(null), '—');
    assert.equal(formatDuration(8), '8 ms');
    assert.equal(formatDuration(1500), '1.50 s');
    assert.equal(formatDuration(15_000), '15.0 s');
    const now = Date.parse('2026-11-21T20:00:00.000Z');
    assert.equal(untilText('2026-11-21T20:00:04.000Z', now), 'in 4 s');
    assert.equal(untilText('2026-11-21T20:05:00.000Z', now), 'in 5 min');
    assert.equal(untilText('2026-11-21T22:30:00.000Z', now), 'in 2 h 30 min');
    assert.equal(untilText('2026-11-21T19:59:00.000Z', now), 'due now');
  });
});
