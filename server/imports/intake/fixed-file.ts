import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ApiError } from '../../http/errors.ts';
import { findTask } from '../../tasks/store.ts';
import type { ReceivedImport } from './intake.ts';

/** The multipart field naming the import whose error report this file is (the GUI's "Import the fixed file"). */
export const FIXES_TASK_FIELD = 'fixes_task_uuid';

export const FIXES_TASK_DESCRIPTION =
  "Optional: the uuid of the import task whose error report this file is (fixed). Kept in the new task's metadata as fixes_task_uuid, so the two link to each other.";

/**
 * The metadata that links a fixed error report's import to the import it fixes: `{fixes_task_uuid}`
 * when the form names a task of the organization, nothing when it names none; a task that is not
 * the organization's is a 400.
 */
export async function fixedFileMetadata(
  db: Kysely<Database>,
  received: ReceivedImport,
  organizationUuid: string,
): Promise<{ fixes_task_uuid?: string }> {
  const uuid = received.fields[FIXES_TASK_FIELD]?.trim();
  if (!uuid) return {};
  const task = await findTask(db, uuid);
  if (!task || task.organization_uuid !== organizationUuid) {
    const message = `${FIXES_TASK_FIELD} ${uuid} is not an import task of this organization; leave it out, or give the task whose error report this file is.`;
    throw new ApiError('VALIDATION_ERROR', message, [{ path: FIXES_TASK_FIELD, message }]);
  }
  return { fixes_task_uuid: task.uuid };
}
