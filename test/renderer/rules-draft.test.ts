import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  draftOf,
  emptyRule,
  failFirstRule,
  ruleOf,
  ruleProblems,
  ruleSummary,
  rulesSummary,
} from '../../renderer/src/pages/inspector/rules-draft.ts';
import { waitsOf } from '../../renderer/src/api/webhook-format.ts';
import { rememberEvents } from '../../renderer/src/api/webhook-events.ts';
import { eventsMeta } from '../../server/webhook-events/meta.ts';

// The events as GET /api/meta gives them (the Shell loads them before any page shows).
rememberEvents(eventsMeta());

describe('the answer rules editor: drafts and rules', () => {
  test('a rule goes through the editor unchanged', () => {
    const rules = [
      { match: { attempt_at_most: 2 }, respond: { status: 503 } },
      {
        match: { event_type: ['service_confirmation.check_out'], message: 3 },
        respond: { status: 429, body: { error: 'slow' }, delay_ms: 2000 },
      },
      { match: { attempt: 1, message_at_least: 2, message_at_most: 5 }, respond: { drop: true } },
      { match: { attempt_at_least: 4 }, respond: { status: 418, body: 'teapot' } },
      { match: {}, respond: {} },
    ];
    for (const rule of rules) assert.deepEqual(ruleOf(draftOf(rule)), rule);
  });

  test('the preset fails the first N attempts; an empty rule answers every request normally', () => {
    assert.deepEqual(ruleOf(failFirstRule(2, 503)), { match: { attempt_at_most: 2 }, respond: { status: 503 } });
    assert.deepEqual(ruleOf(emptyRule()), { match: {}, respond: {} });
    assert.notEqual(emptyRule().key, emptyRule().key);
  });

  test('finds what is wrong before sending, by the API field path', () => {
    const bad = {
      ...emptyRule(),
      attemptFrom: 'x',
      attemptTo: '1.5',
      messageFrom: '-1',
      messageTo: 'a',
      status: '42',
      delayMs: 'soon',
      body: 'x',
    };
    assert.deepEqual(Object.keys(ruleProblems([emptyRule(), bad])).sort(), [
      'rules.1.match.attempt_at_least',
      'rules.1.match.attempt_at_most',
      'rules.1.match.message_at_least',
      'rules.1.match.message_at_most',
      'rules.1.respond.delay_ms',
      'rules.1.respond.status',
    ]);
    assert.deepEqual(Object.keys(ruleProblems([{ ...emptyRule(), body: 'x' }])), ['rules.0.respond.body']);
    assert.deepEqual(ruleProblems([{ ...emptyRule(), drop: true, body: 'x' }]), {});
  });

  test('sums rules up for headers and lists', () => {
    assert.equal(rulesSummary([]), null);
    assert.equal(rulesSummary([{ match: { attempt_at_most: 2 }, respond: { status: 503 } }]), 'first 2 attempts → 503');
    assert.equal(
      rulesSummary([
        { match: {}, respond: {} },
        { match: {}, respond: {} },
      ]),
      '2 answer rules',
    );
    assert.equal(
      ruleSummary({ match: { attempt_at_most: 1 }, respond: { drop: true, delay_ms: 1500 } }),
      'first 1 attempt → drop after 1.5 s',
    );
    assert.equal(ruleSummary({ match: { message_at_least: 3 }, respond: { delay_ms: 20 } }), 'message 3 on → normal after 20 ms');
    assert.equal(
      ruleSummary({ match: { event_type: ['a', 'b'], attempt_at_least: 2, attempt_at_most: 3, message: 4 }, respond: { status: 500 } }),
      'a or b, attempts 2–3, message 4 → 500',
    );
  });

  test('reads retry waits typed in seconds', () => {
    assert.deepEqual(waitsOf('1, 2.5 30'), [1000, 2500, 30000]);
    assert.equal(waitsOf(''), null);
    assert.equal(waitsOf('1, soon'), null);
  });
});
