import type { BackgroundTask } from '../../server/tasks/schemas.ts';
import { insertTask } from '../../server/tasks/store.ts';
import type { TestServer } from './server.ts';

/**
 * A background task row of an organization as a running QR code import leaves it (task_id = uuid,
 * progress 0, no metadata, results or error); `fields` override any of it.
 */
export function taskRow(organization: { organizationUuid: string }, uuid: string, fields: Partial<BackgroundTask> = {}): BackgroundTask {
  const now = new Date().toISOString();
  return {
    uuid,
    task_id: uuid,
    task_type: 'QR_IMPORT',
    status: 'PROCESSING',
    progress: 0,
    created_by_uuid: 'u',
    metadata: null,
    organization_uuid: organization.organizationUuid,
    results: null,
    error_message: null,
    created_on: now,
    updated_on: now,
    ...fields,
  };
}

/** Writes taskRow(server, uuid, fields) straight into the server's database (a task the API only reads). */
export function insertTaskRow(server: TestServer, uuid: string, fields: Partial<BackgroundTask> = {}): Promise<void> {
  return insertTask(server.ctx.db.kysely, taskRow(server, uuid, fields));
}
