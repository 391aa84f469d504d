import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { openDatabase } from '../../server/db/open-database.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { claimDueDeliveries } from '../../server/webhooks/dispatch-store.ts';
import { queueEvent } from '../../server/webhooks/outbox.ts';
import { Slots } from '../../server/webhooks/slots.ts';
import { registerWebhook } from '../../server/webhooks/webhooks.ts';
import { tempDataDir } from '../support/server.ts';

test('claims respect the per-webhook cap, so one slow receiver cannot take every slot', async () => {
  const dataDir = tempDataDir();
  const db = await openDatabase(dataDir);
  try {
    const { organization_uuid } = await createOrganization(db.kysely, { name: 'Claims' });
    const slow = await registerWebhook(db.kysely, {
      organization_uuid,
      url: 'http://127.0.0.1:9/slow',
      events: ['service_confirmation.check_in'],
      is_active: true,
    });
    const events = 20;
    db.sqlite.transaction(() => {
      for (let i = 0; i < events; i++) queueEvent(db, organization_uuid, 'service_confirmation.check_in', { n: i });
    })();
    const other = await registerWebhook(db.kysely, {
      organization_uuid,
      url: 'http://127.0.0.1:9/other',
      events: ['service_confirmation.delivery'],
      is_active: true,
    });
    queueEvent(db, organization_uuid, 'service_confirmation.delivery', { n: 'other' });

    const now = new Date();
    const slots = new Slots({ total: 16, perOrganization: 16, perHost: 16, perWebhook: 8 });
    const claim = async () => {
      const claims = await claimDueDeliveries(
        db,
        () => slots.plan(),
        () => now.getTime(),
        now.toISOString(),
      );
      for (const c of claims) slots.take(c);
      return claims;
    };
    const first = await claim();
    assert.equal(first.filter((c) => c.webhook_uuid === slow.uuid).length, 8);
    assert.equal(first.filter((c) => c.webhook_uuid === other.uuid).length, 1);
    assert.ok(first.every((c) => c.attempt === 1));

    const second = await claim();
    assert.equal(second.length, 0, 'the slow webhook is at its cap and the other has nothing due');
    for (const c of first.filter((c) => c.webhook_uuid === slow.uuid).slice(0, 3)) slots.release(c);
    const third = await claim();
    assert.equal(third.length, 3);
    const claimed = new Set([...first, ...third].map((c) => c.delivery_id));
    assert.equal(claimed.size, 12, 'no delivery is claimed twice');
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
