import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeMatch, describeRespond } from '../../server/cli/inbox-rules.ts';
import { parseAttempt, parseRules, pickRule, responseOfRules, rulesWithResponse } from '../../server/receiver/rules.ts';
import { describeDuration } from '../../server/webhooks/auto-disable.ts';
import { describeSchedule, maxAttempts, nextRetryDelay, parseWebhookSchedule } from '../../server/webhooks/retry-schedule.ts';

describe('answer rules, retry schedules and auto-disable: the pure parts', () => {
  it('reads stored rules, and nothing from a damaged column', () => {
    assert.deepEqual(parseRules('not json'), []);
    assert.deepEqual(parseRules('[{"respond":{"status":7}}]'), []);
    assert.deepEqual(parseRules('[{"respond":{}}]'), [{ match: {}, respond: {} }]);
  });

  it('reads X-Sandbox-Attempt as a positive whole number only', () => {
    assert.equal(parseAttempt('3'), 3);
    assert.equal(parseAttempt(' 2 '), 2);
    for (const bad of [undefined, '0', '-1', '1.5', 'two', '', '99999999999']) assert.equal(parseAttempt(bad), null, String(bad));
  });

  it('picks the first rule that matches; a condition on a fact the request lacks does not match', () => {
    const rules = [
      { match: { event_type: ['a'] }, respond: { status: 500 } },
      { match: { message_at_least: 2 }, respond: { status: 502 } },
      { match: {}, respond: {} },
    ];
    assert.equal(pickRule(rules, { eventType: 'a', attempt: 1, messageNumber: 5 })?.index, 0);
    assert.equal(pickRule(rules, { eventType: null, attempt: 1, messageNumber: 5 })?.index, 1);
    assert.equal(pickRule(rules, { eventType: 'b', attempt: null, messageNumber: null })?.index, 2);
    assert.equal(pickRule([], { eventType: 'a', attempt: 1, messageNumber: 1 }), null);
  });

  it('maps the older setting onto the rule for every request, leaving rules with a body alone', () => {
    const withBody = { match: {}, respond: { status: 418, body: 'teapot' } };
    assert.deepEqual(responseOfRules([withBody]), { status: null, delay_ms: 0, drop: false });
    assert.deepEqual(rulesWithResponse([withBody], { status: 500 }), [withBody, { match: {}, respond: { status: 500 } }]);
    assert.deepEqual(rulesWithResponse([withBody], { status: null }), [withBody]);
  });

  it('describes rules for the terminal', () => {
    assert.equal(describeMatch({}), 'every request');
    assert.equal(describeMatch({ attempt: 1, message_at_least: 2, message_at_most: 4 }), 'attempt 1, message 2-4');
    assert.equal(describeMatch({ event_type: ['a', 'b'], attempt_at_least: 3 }), 'event a|b, attempt >= 3');
    assert.equal(describeRespond({}), 'normal answer');
    assert.equal(describeRespond({ delay_ms: 5 }), 'normal answer after 5 ms');
    assert.equal(describeRespond({ status: 500 }), '500');
  });

  it('reads a webhook schedule as stored, and describes it', () => {
    assert.equal(parseWebhookSchedule(null), null);
    assert.equal(parseWebhookSchedule('not json'), null);
    assert.equal(parseWebhookSchedule('"slow"'), null);
    assert.equal(parseWebhookSchedule('"fast"'), 'fast');
    assert.deepEqual(parseWebhookSchedule('[10,20]'), [10, 20]);
    assert.equal(maxAttempts([10, 20]), 3);
    assert.equal(
      nextRetryDelay([10, 20], 2, () => 0),
      20,
    );
    assert.equal(nextRetryDelay([10, 20], 3), null);
    assert.equal(describeSchedule('fast'), 'the fast schedule');
    assert.equal(describeSchedule([1]), "the webhook's own schedule");
  });

  it('says a duration the short way', () => {
    assert.equal(describeDuration(86_400_000), '1 day');
    assert.equal(describeDuration(2 * 86_400_000), '2 days');
    assert.equal(describeDuration(7_200_000), '2 h');
    assert.equal(describeDuration(120_000), '2 min');
    assert.equal(describeDuration(1_500), '2 s');
  });
});
