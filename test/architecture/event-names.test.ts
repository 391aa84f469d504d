import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventNameProblems, eventNameViolations } from '../../scripts/architecture/event-names.ts';

describe('the event-name rule of the architecture check', () => {
  it('refuses a branch on an event name: a comparison, a case label, an object key', () => {
    const files = new Map([
      [
        'server/demo/event-stream.ts',
        'const x = 1;\n    if (event === \'service_confirmation.check_out\') wait();\n    if ("qrcode.deleted" !== type) return;',
      ],
      ['server/cli/listen.ts', "switch (type) {\n  case 'service_confirmation.delivery':\n}"],
      ['renderer/src/api/labels.ts', "const labels = {\n  'service_confirmation.check_in': 'Check-in',\n};"],
    ]);
    assert.deepEqual(
      eventNameViolations(files).map((line) => line.replace(/ \(read .*\)$/, '')),
      [
        "server/demo/event-stream.ts:2 branches on the event name === 'service_confirmation.check_out'",
        'server/demo/event-stream.ts:3 branches on the event name "qrcode.deleted" !==',
        "server/cli/listen.ts:2 branches on the event name case 'service_confirmation.delivery'",
        "renderer/src/api/labels.ts:2 branches on the event name 'service_confirmation.check_in':",
      ],
    );
  });

  it('lets the definitions and the registry name events, and text merely mention one', () => {
    const files = new Map([
      [
        'server/confirmations/events.ts',
        "defineWebhookEvent({ type: 'service_confirmation.check_in' }); if (t === 'service_confirmation.check_in') {}",
      ],
      ['server/webhook-events/registry.ts', "if (type === 'qrcode.deleted') {}"],
      ['server/receiver/resend.ts', 'throw invalid(\'add one, e.g. "service_confirmation.check_in".\');'],
      ['server/cli/scenarios-builtin.ts', 'steps: [{ event: checkInEvent.type }]'],
    ]);
    assert.deepEqual(eventNameViolations(files), []);
  });

  it('finds nothing in the real tree', () => {
    assert.deepEqual(eventNameProblems(), []);
  });
});
