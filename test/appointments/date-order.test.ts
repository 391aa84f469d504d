import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseStartDateTime } from '../../server/appointments/times.ts';
import { defaultDateOrder } from '../../server/settings/date-order.ts';
import { fileUpload, startImportTestServer } from '../support/imports.ts';
import { jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

const local = (text: string, order: 'day_first' | 'month_first' | 'iso_only') => {
  const parsed = parseStartDateTime(text, 'start_date_time', order);
  return parsed.ok ? parsed.value.local.toString() : parsed.error;
};

describe('dates as a spreadsheet shows them (date order)', () => {
  it('reads 02/12/2026 11:00 as the order says, and ISO dates whatever the order', () => {
    assert.equal(local('02/12/2026 11:00', 'day_first'), '2026-12-02T11:00:00');
    assert.equal(local('02/12/2026 11:00', 'month_first'), '2026-02-12T11:00:00');
    assert.equal(local('2/12/2026 11:00 PM', 'month_first'), '2026-02-12T23:00:00');
    assert.equal(local('2.12.2026 09:30', 'day_first'), '2026-12-02T09:30:00');
    for (const order of ['day_first', 'month_first', 'iso_only'] as const)
      assert.equal(local('2026-12-02 11:00', order), '2026-12-02T11:00:00');
  });

  it('fails ambiguous and impossible dates with a reason that says what to do', () => {
    assert.match(
      local('02/12/2026 11:00', 'iso_only'),
      /could be 2 December 2026, 11:00 \(day first\) or 12 February 2026, 11:00 \(month first\).*Settings > Date order/,
    );
    assert.match(
      local('12/13/2026 11:00', 'day_first'),
      /not a real date and time read day first \(DD\/MM\/YYYY\).*Read month first it would be 13 December 2026, 11:00/,
    );
    assert.match(local('02/12/26 11:00', 'day_first'), /two-digit year/);
    assert.match(local('02/12/2026', 'day_first'), /has a date but no time/);
  });

  it('defaults from the organization time zone: AU, GB, IT day first; US month first; CA only ISO', () => {
    assert.deepEqual(
      [
        'Australia/Melbourne',
        'Europe/London',
        'Europe/Rome',
        'America/New_York',
        'America/Los_Angeles',
        'America/Toronto',
        'Asia/Tokyo',
      ].map(defaultDateOrder),
      ['day_first', 'day_first', 'day_first', 'month_first', 'month_first', 'iso_only', 'iso_only'],
    );
  });
});

describe('date_order in /api/settings, the preview and the import', () => {
  const server = suiteServer(startImportTestServer);

  const settings = async () =>
    (await (await server.request(`/api/settings?organization_uuid=${server.organizationUuid}`)).json()) as {
      date_order: string;
      date_order_source: string;
    };
  const patch = (body: Record<string, unknown>) =>
    server.request('/api/settings', { ...jsonBody({ organization_uuid: server.organizationUuid, ...body }), method: 'PATCH' });
  const csv = [
    'tag_name,tag_number,start_date_time,location,service',
    'Gate,1,02/12/2026 11:00,"1 Collins Street, Melbourne VIC 3000",Cleaning',
  ].join('\r\n');
  const previewRow = async () => {
    const res = await server.request(
      '/api/imports/preview',
      fileUpload(csv, 'visits.csv', { kind: 'appointments', organization_uuid: server.organizationUuid }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { rows: { problems: string[]; notes: string[] }[] }).rows[0];
  };

  it('defaults from the time zone, changes with PATCH and goes back with null', async () => {
    const initial = await settings();
    assert.equal(initial.date_order_source, 'time_zone');
    const changed = await patch({ date_order: 'month_first' });
    assert.equal(changed.status, 200, await changed.clone().text());
    assert.deepEqual(await settings(), { ...(await settings()), date_order: 'month_first', date_order_source: 'setting' });
    const bad = await patch({ date_order: 'sideways' });
    assert.equal(bad.status, 400);
    assert.equal(((await (await patch({ date_order: null })).json()) as { date_order_source: string }).date_order_source, 'time_zone');
  });

  it('the preview says how the date was read, and the import stores that date', async () => {
    assert.equal((await patch({ date_order: 'day_first' })).status, 200);
    const dayFirst = await previewRow();
    assert.deepEqual(dayFirst?.problems, []);
    assert.deepEqual(dayFirst?.notes, ['start_date_time: "02/12/2026 11:00" read day first (DD/MM/YYYY) as 2 December 2026, 11:00.']);

    assert.equal((await patch({ date_order: 'iso_only' })).status, 200);
    const iso = await previewRow();
    assert.match(iso?.problems[0] ?? '', /could be 2 December 2026, 11:00 \(day first\) or 12 February 2026, 11:00 \(month first\)/);

    assert.equal((await patch({ date_order: 'month_first' })).status, 200);
    assert.match((await previewRow())?.notes[0] ?? '', /read month first \(MM\/DD\/YYYY\) as 12 February 2026, 11:00/);
    const res = await server.request(
      '/api/appointment_schedule/bulk',
      fileUpload(csv, 'visits.csv', { organization_uuid: server.organizationUuid, processing_mode: 'sync' }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const answer = (await res.json()) as { appointment_schedules_upserted: { start_date_time: string }[] };
    assert.equal(answer.appointment_schedules_upserted[0]?.start_date_time, '2026-02-12T11:00:00+11:00');
  });
});
