import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newestDeliveryWhen, registerWebhook, simulateCheckIn } from '../support/webhooks.ts';
import { startTestServer } from '../support/server.ts';
import { sleep, startReceiver, waitFor } from './support.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

describe('deliveries survive a restart', () => {
  const freshDir = suiteTempDirs();

  test('a retry that fell due while the app was stopped goes out after restart, same delivery id, attempt 2', async () => {
    const dataDir = freshDir();
    let failing = true;
    const receiver = await startReceiver(() => (failing ? { status: 503 } : { status: 204 }));
    try {
      const first = await startTestServer({ dataDir, webhookRetrySchedule: 'fast' });
      const webhook = await registerWebhook(first, `${receiver.url}/hook`, { sandbox_diagnostics: true });
      await simulateCheckIn(first);
      const pending = await newestDeliveryWhen(first, webhook.uuid, 'attempt 1 to fail', (d) => d.attempts[0]?.status_code === 503);
      await first.stop();
      assert.equal(pending.status, 'pending');
      const due = Date.parse(pending.next_attempt_on ?? '');
      await sleep(Math.max(0, due - Date.now()) + 200);
      assert.equal(receiver.received.length, 1, 'nothing is sent while the app is stopped');
      failing = false;

      const second = await startTestServer({ dataDir, webhookRetrySchedule: 'fast' });
      try {
        const delivered = await newestDeliveryWhen(second, webhook.uuid, 'the retry after restart', (d) => d.status === 'delivered');
        assert.equal(delivered.delivery_id, pending.delivery_id);
        assert.deepEqual(
          delivered.attempts.map((a) => a.status_code),
          [503, 204],
        );
        assert.deepEqual(
          receiver.received.map((r) => r.headers['x-sandbox-attempt']),
          ['1', '2'],
        );
        assert.deepEqual(new Set(receiver.received.map((r) => r.headers['x-sandbox-delivery-id'])), new Set([pending.delivery_id]));
      } finally {
        await second.stop();
      }
    } finally {
      await receiver.close();
    }
  });

  test('an attempt cut short by a crash is closed as interrupted and sent again with the same delivery id', async () => {
    const dataDir = freshDir();
    const receiver = await startReceiver(() => ({ status: 500 }));
    try {
      const first = await startTestServer({ dataDir, webhookRetrySchedule: 'standard' });
      const webhook = await registerWebhook(first, `${receiver.url}/hook`, { sandbox_diagnostics: true });
      await simulateCheckIn(first);
      const failed = await newestDeliveryWhen(first, webhook.uuid, 'attempt 1 to fail', (d) => d.attempts[0]?.status_code === 500);
      await first.stop();
      // What a crash in the middle of attempt 2 leaves behind: the claim of attempt 2, no outcome.
      const { openConnection } = await import('../../server/db/database.ts');
      const db = openConnection(dataDir);
      await db.kysely
        .updateTable('webhook_deliveries')
        .set({ in_flight: 1, attempt_count: 2, claimed_on: new Date().toISOString(), next_attempt_at: Date.now() + 3_600_000 })
        .where('delivery_id', '=', failed.delivery_id)
        .execute();
      await db.close();

      const second = await startTestServer({ dataDir, webhookRetrySchedule: 'standard' });
      try {
        const after3 = await newestDeliveryWhen(
          second,
          webhook.uuid,
          'attempt 3 after recovery',
          (d) => d.attempts[2]?.status_code === 500,
        );
        assert.equal(after3.attempts[1]?.status_code, null);
        assert.match(after3.attempts[1]?.error ?? '', /Interrupted/);
        assert.equal(after3.delivery_id, failed.delivery_id);
        assert.equal(after3.status, 'pending');
        assert.deepEqual(
          receiver.received.map((r) => r.headers['x-sandbox-attempt']),
          ['1', '3'],
        );
      } finally {
        await second.stop();
      }
    } finally {
      await receiver.close();
    }
  });

  test('stopping during an attempt leaves the delivery due; it goes out after restart', async () => {
    const dataDir = freshDir();
    let hang = true;
    const receiver = await startReceiver(() => (hang ? { status: 200, delayMs: 60_000 } : { status: 200, body: 'ok' }));
    try {
      const first = await startTestServer({ dataDir });
      const webhook = await registerWebhook(first, `${receiver.url}/hook`, { sandbox_diagnostics: true });
      await simulateCheckIn(first);
      await waitFor('the attempt to reach the receiver', () => (receiver.received.length > 0 ? true : undefined));
      await first.stop();
      hang = false;

      const second = await startTestServer({ dataDir });
      try {
        const delivered = await newestDeliveryWhen(second, webhook.uuid, 'delivery after restart', (d) => d.status === 'delivered');
        assert.match(delivered.attempts[0]?.error ?? '', /Interrupted/);
        assert.equal(delivered.attempts[1]?.status_code, 200);
        assert.equal(new Set(receiver.received.map((r) => r.headers['x-sandbox-delivery-id'])).size, 1);
      } finally {
        await second.stop();
      }
    } finally {
      await receiver.close();
    }
  });
});
