import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { distanceKm } from '../../server/confirmations/geo.ts';
import type { ServiceConfirmation } from '../../server/confirmations/schemas.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { MICROS_TIMESTAMP } from '../../server/webhooks/microtime.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('service confirmations', () => {
  const server = suiteServer();

  async function simulate(event: string, extra: Record<string, unknown> = {}) {
    const res = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: server.organizationUuid, event, ...extra }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as { event: { id: string; type: string; created_at: string; data: ServiceConfirmation } };
  }

  function assertFullyPopulated(c: ServiceConfirmation) {
    for (const key of [
      'uuid',
      'organization_uuid',
      'user_uuid',
      'company_uuid',
      'qr_code_uuid',
      'qr_code_tag_uuid',
      'service_uuid',
      'appointment_schedule_uuid',
    ] as const) {
      assert.match(String(c[key]), UUID, key);
    }
    assert.match(c.created_on, MICROS_TIMESTAMP);
    assert.match(c.updated_on, MICROS_TIMESTAMP);
    assert.equal(c.work_mode, 'IN_PERSON');
    assert.ok(c.note.length > 0);
    assert.ok(c.location.length > 0);
    assert.equal(c.user_uuid, c.user.uuid);
    assert.ok(c.user.firstname && c.user.lastname && c.user.email.includes('@'));
    assert.equal(c.company_uuid, c.company.uuid);
    assert.ok(c.company.name);
    assert.ok(c.services.length >= 1);
    assert.equal(c.service, c.services[0]?.name);
    assert.equal(c.service_uuid, c.services[0]?.uuid);
    for (const s of c.services) {
      assert.ok(s.code && s.name);
      assert.ok(s.service_categories.length >= 1 && s.service_categories.every((cat) => UUID.test(cat.uuid) && cat.name));
    }
    assert.ok(c.question_responses.length >= 1);
    for (const q of c.question_responses) {
      assert.equal(q.question.question_type, 'RATING');
      assert.match(q.response_text, /^[1-5]$/);
    }
    assert.ok(c.qr_code_tag?.tag_name && c.qr_code_tag.tag_number && c.qr_code_tag.tag_display_name);
    assert.match(c.appointment_schedule.start_date_time, ISO_MS);
    assert.match(c.appointment_schedule.end_date_time, ISO_MS);
    assert.ok(c.appointment_schedule.job_reference_id);
    assert.equal(typeof c.user_geolocation.lat, 'number');
    assert.equal(typeof c.user_geolocation.lng, 'number');
    assert.ok(c.user_geolocation.address);
  }

  test('simulate in an organization without QR codes creates a demo site and populates each event per the service contract', async () => {
    assert.equal(
      Number(
        (
          await server.ctx.db.kysely
            .selectFrom('qrcodes')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      0,
    );

    const checkIn = (await simulate('service_confirmation.check_in')).event;
    assert.equal(checkIn.type, 'service_confirmation.check_in');
    assert.match(checkIn.id, /^evt_/);
    assert.match(checkIn.created_at, ISO_MS);
    const a = checkIn.data;
    assertFullyPopulated(a);
    assert.equal(a.status, 'CHECK_IN');
    assert.match(a.checked_in_at ?? '', ISO_MS);
    assert.equal(a.checked_out_at, null);
    assert.equal(a.location_verified, true);
    assert.equal(a.checkout_image_urls, null);
    assert.equal(a.delivery_image_url, null);
    assert.equal(a.is_sms, false);
    const qr = await server.ctx.db.kysely.selectFrom('qrcodes').selectAll().where('uuid', '=', a.qr_code_uuid).executeTakeFirstOrThrow();
    assert.equal(qr.organization_uuid, server.organizationUuid);
    assert.equal(qr.type, 'SITE');
    assert.equal(a.location, qr.location);

    const checkOut = (await simulate('service_confirmation.check_out', { qr_code_uuid: a.qr_code_uuid })).event.data;
    assertFullyPopulated(checkOut);
    assert.equal(checkOut.status, 'CHECK_OUT');
    assert.equal(checkOut.checked_in_at, a.checked_in_at, 'the check-out closes the open check-in');
    assert.match(checkOut.checked_out_at ?? '', ISO_MS);
    assert.ok((checkOut.checked_out_at ?? '') >= (checkOut.checked_in_at ?? ''));
    assert.ok(Array.isArray(checkOut.checkout_image_urls) && checkOut.checkout_image_urls.length >= 1);
    assert.equal(checkOut.previous_service_confirmation_uuid, a.uuid);
    assert.equal(checkOut.previous_service_confirmation?.uuid, a.uuid);
    assert.equal(checkOut.previous_service_confirmation?.previous_service_confirmation, null);
    const expected = distanceKm(a.user_geolocation, checkOut.user_geolocation);
    assert.ok(Math.abs(checkOut.calculated_distance_from_previous - expected) < 0.001);
    assert.equal(typeof checkOut.manual_distance_from_previous, 'number');

    const delivery = (await simulate('service_confirmation.delivery')).event.data;
    assertFullyPopulated(delivery);
    assert.equal(delivery.status, 'DELIVERY');
    assert.match(delivery.delivery_image_url ?? '', /^https:\/\//);
    assert.equal(typeof delivery.is_sms, 'boolean');
    assert.equal(delivery.previous_service_confirmation_uuid, checkOut.uuid);
    assert.equal(delivery.checked_out_at, null);

    const count = await server.ctx.db.kysely
      .selectFrom('qrcodes')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1, 'the demo QR code is created once and then reused');

    const list = (await (
      await server.request(`/api/service-confirmations?organization_uuid=${server.organizationUuid}&per_page=2`)
    ).json()) as {
      items: ServiceConfirmation[];
      total: number;
      pages: number;
    };
    assert.equal(list.total, 3);
    assert.equal(list.pages, 2);
    assert.deepEqual(
      list.items.map((c) => c.uuid),
      [delivery.uuid, checkOut.uuid],
    );
    const one = await server.request(`/api/service-confirmations/uuid/${a.uuid}`);
    assert.deepEqual(await one.json(), a);
  });

  test('POST /api/service-confirmations records one for a QR code, with given fields kept', async () => {
    const qrUuid = (await simulate('service_confirmation.check_in')).event.data.qr_code_uuid;
    const res = await server.request(
      '/api/service-confirmations',
      jsonBody({
        organization_uuid: server.organizationUuid,
        qr_code_uuid: qrUuid,
        status: 'DELIVERY',
        note: 'Left at reception',
        is_sms: true,
        user: { firstname: 'Ana', lastname: 'Silva', email: 'ana@example.com' },
      }),
    );
    assert.equal(res.status, 201, await res.clone().text());
    const c = (await res.json()) as ServiceConfirmation;
    assert.equal(c.status, 'DELIVERY');
    assert.equal(c.note, 'Left at reception');
    assert.equal(c.is_sms, true);
    assert.equal(c.user.email, 'ana@example.com');
    assert.equal(c.qr_code_uuid, qrUuid);
    assert.match(c.delivery_image_url ?? '', /^https:\/\//);

    const bad = async (body: Record<string, unknown>, status: number) => {
      const r = await server.request(
        '/api/service-confirmations',
        jsonBody({ organization_uuid: server.organizationUuid, qr_code_uuid: qrUuid, status: 'CHECK_IN', ...body }),
      );
      assert.equal(r.status, status, await r.clone().text());
    };
    await bad({ status: 'ARRIVED' }, 400);
    await bad({ qr_code_uuid: 'no-such-qr' }, 404);
    await bad({ qr_code_tag_uuid: 'no-such-tag' }, 400);
    await bad({ checked_in_at: 'yesterday' }, 400);

    const other = await createOrganization(server.ctx.db.kysely, { name: 'Elsewhere' });
    const r = await fetch(`${server.url}/api/service-confirmations`, {
      ...jsonBody({ organization_uuid: other.organization_uuid, qr_code_uuid: qrUuid, status: 'CHECK_IN' }),
      headers: { 'content-type': 'application/json', authorization: bearer(other) },
    });
    assert.equal(r.status, 404, 'another organization cannot see this QR code');
    const simulations = [
      { organization_uuid: server.organizationUuid, event: 'qrcode.created', status: 400 },
      { organization_uuid: other.organization_uuid, event: 'service_confirmation.check_in', status: 403 },
    ];
    for (const { organization_uuid, event, status } of simulations) {
      const answer = await server.request('/api/service-confirmations/simulate', jsonBody({ organization_uuid, event }));
      assert.equal(answer.status, status, `simulate ${event}`);
    }
  });
});
