import type { Page } from 'playwright-core';
import type { LookShot } from './shot-run.ts';
import { fileUpload, waitForTask } from '../../support/imports.ts';
import type { TestServer } from '../../support/server.ts';

/** An appointment import through the "acme-jobs" handler (seedAppointmentShots) with excluded rows, for its task page. */
export async function seedAppointmentTask(server: TestServer): Promise<string> {
  const csv = [
    'Job Ref,Site,Visit start,tag_name,tag_number,service',
    'AC-1,"1 Collins Street, Melbourne VIC 3000",2026-05-04 09:00,Gate,7,Plumbing',
    'AC-2,"1 Nowhere Road, Atlantis ZZ 00000",2026-05-04 11:00,Gate,8,Plumbing',
    'AC-3,"1 Collins Street, Melbourne VIC 3000",next week,Gate,7,Plumbing',
  ].join('\r\n');
  const res = await server.request(
    '/api/appointment_schedule/bulk',
    fileUpload(csv, 'acme-may.csv', { organization_uuid: server.organizationUuid, org_identifier: 'acme-jobs' }),
  );
  const { background_task_uuid: uuid } = (await res.json()) as { background_task_uuid: string };
  await waitForTask(server, uuid);
  return uuid;
}

/** The task page of that import: excluded rows, the error report and "Import the fixed file" through the same handler. */
export async function appointmentTaskShots(page: Page, baseUrl: string, taskUuid: string, shot: LookShot): Promise<void> {
  await page.goto(`${baseUrl}/tasks/${taskUuid}`);
  await page.getByRole('button', { name: 'Import the fixed file' }).waitFor();
  await page.getByRole('heading', { name: 'Excluded rows' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('state-task-appointment-fixed-file');
}
