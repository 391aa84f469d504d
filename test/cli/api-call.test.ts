import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printTable, sinceTime } from '../../server/cli/api-call.ts';
import { StartupError } from '../../server/startup-error.ts';

describe('the client commands’ --since and tables', () => {
  const now = Date.parse('2026-11-28T12:00:00.000Z');

  it('reads --since as an ISO 8601 time or a duration back from now', () => {
    assert.equal(sinceTime('2026-11-28T09:30:00+01:00', now), '2026-11-28T08:30:00.000Z');
    assert.equal(sinceTime('45s', now), '2026-11-28T11:59:15.000Z');
    assert.equal(sinceTime('30m', now), '2026-11-28T11:30:00.000Z');
    assert.equal(sinceTime('2h', now), '2026-11-28T10:00:00.000Z');
    assert.equal(sinceTime('1d', now), '2026-11-27T12:00:00.000Z');
    assert.equal(sinceTime(undefined, now), undefined);
    assert.throws(
      () => sinceTime('last tuesday', now),
      (error: unknown) => error instanceof StartupError && /30m, 2h, 1d/.test(error.message),
    );
  });

  it('aligns table columns, the last one unpadded', () => {
    let text = '';
    printTable(
      ['NAME', 'SIZE'],
      [
        ['a', '1 KB'],
        ['longer-name', '2 KB'],
      ],
      (t) => (text += t),
    );
    assert.equal(text, 'NAME         SIZE\na            1 KB\nlonger-name  2 KB\n');
  });
});
