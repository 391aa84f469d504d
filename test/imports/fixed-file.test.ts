import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileUpload, startImportTestServer, waitForTask } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

describe('importing a fixed error report links back to the import it fixes', () => {
  const server = suiteServer(startImportTestServer);

  const start = async (path: string, csv: string, fields: Record<string, string> = {}) =>
    server.request(path, fileUpload(csv, 'sites.csv', { organization_uuid: server.organizationUuid, ...fields }));

  it('keeps fixes_task_uuid in the new task metadata, for QR codes and appointments', async () => {
    const first = await start('/api/qrcodes/bulk', 'location,type\n"1 Collins Street, Melbourne VIC 3000",bad type!\n');
    assert.equal(first.status, 202);
    const original = ((await first.json()) as { background_task_uuid: string }).background_task_uuid;
    await waitForTask(server, original);
    const fixed = await start(
      '/api/qrcodes/bulk',
      'location,type,row_number,error\n"1 Collins Street, Melbourne VIC 3000",SITE,2,type: bad\n',
      { fixes_task_uuid: original },
    );
    assert.equal(fixed.status, 202, await fixed.clone().text());
    const task = await waitForTask(server, ((await fixed.json()) as { background_task_uuid: string }).background_task_uuid);
    assert.equal(task.metadata?.fixes_task_uuid, original);
    assert.equal(task.metadata?.filename, 'sites.csv');

    const appointments = await start(
      '/api/appointment_schedule/bulk',
      'tag_name,tag_number,start_date_time,location,service\nGate,1,2026-03-02 09:00,"1 Collins Street, Melbourne VIC 3000",Cleaning\n',
      {
        fixes_task_uuid: original,
      },
    );
    assert.equal(appointments.status, 202, await appointments.clone().text());
    const appointmentTask = await waitForTask(
      server,
      ((await appointments.json()) as { background_task_uuid: string }).background_task_uuid,
    );
    assert.equal(appointmentTask.metadata?.fixes_task_uuid, original);
  });

  it('refuses a task that is not one of the organization', async () => {
    const res = await start('/api/qrcodes/bulk', 'location\n"1 Collins Street, Melbourne VIC 3000"\n', {
      fixes_task_uuid: '00000000-0000-7000-8000-000000000000',
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { details: { path: string }[] } };
    assert.equal(body.error.details[0]?.path, 'fixes_task_uuid');
  });
});
