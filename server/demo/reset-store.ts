import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { DeletedCounts } from './schemas.ts';
import { ApiError } from '../http/errors.ts';
import { moveCatalogVersion } from '../services/store.ts';
import { countLiveWebhooks } from '../webhooks/store.ts';

type Trx = Transaction<Database>;

/** Tasks of the organization that an import worker may still be writing. */
export function runningImports(db: Kysely<Database> | Trx, organizationUuid: string) {
  return db
    .selectFrom('background_tasks')
    .select(['uuid', 'task_type', 'status'])
    .where('organization_uuid', '=', organizationUuid)
    .where('status', 'in', ['PENDING', 'PROCESSING'])
    .execute();
}

/**
 * 409 (nothing changes) while an import of the organization is PENDING or PROCESSING. Call it before
 * the write transaction, so the answer does not wait for the lock a running batch holds, and again
 * inside it, where no import can start unseen. `then` says what to do next, given the import's task.
 */
export async function refuseWhileImporting(
  db: Kysely<Database> | Trx,
  organizationUuid: string,
  nothingWas: string,
  then: (taskUuid: string) => string,
): Promise<void> {
  const imports = await runningImports(db, organizationUuid);
  const first = imports[0];
  if (!first) return;
  throw new ApiError(
    'CONFLICT',
    `An import of this organization is still running (task ${first.uuid}, ${first.status}${imports.length > 1 ? `, and ${imports.length - 1} more` : ''}). ` +
      `Nothing was ${nothingWas}. ${then(first.uuid)}`,
  );
}

const deleted = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

/**
 * Deletes everything an organization made, in one transaction the caller opened, children before
 * parents: webhooks with their events, deliveries and attempts; service confirmations;
 * appointments; QR codes and tags; services and their categories; import handlers; tasks with
 * their import jobs and excluded rows; inboxes with their messages and relays. The organization,
 * its API keys and its settings stay. Returns what was deleted and the upload files of the jobs.
 */
export async function deleteOrganizationRows(trx: Trx, org: string): Promise<{ counts: DeletedCounts; uploadFiles: string[] }> {
  const orgWebhooks = trx.selectFrom('webhooks').select('uuid').where('organization_uuid', '=', org);
  const orgDeliveries = trx
    .selectFrom('webhook_deliveries')
    .select('delivery_id')
    .where((eb) => eb.or([eb('organization_uuid', '=', org), eb('webhook_uuid', 'in', orgWebhooks)]));
  const orgAppointments = trx.selectFrom('appointment_schedules').select('uuid').where('organization_uuid', '=', org);
  const orgServices = trx.selectFrom('services').select('uuid').where('organization_uuid', '=', org);
  const orgTasks = trx.selectFrom('background_tasks').select('uuid').where('organization_uuid', '=', org);
  const orgInboxes = trx.selectFrom('inboxes').select('uuid').where('organization_uuid', '=', org);
  const orgMessages = trx.selectFrom('inbox_messages').select('uuid').where('inbox_uuid', 'in', orgInboxes);

  const uploads = await trx.selectFrom('import_jobs').select('upload_file').where('task_uuid', 'in', orgTasks).execute();

  await trx.deleteFrom('webhook_delivery_attempts').where('delivery_id', 'in', orgDeliveries).execute();
  const deliveries = deleted(
    await trx.deleteFrom('webhook_deliveries').where('delivery_id', 'in', orgDeliveries).executeTakeFirstOrThrow(),
  );
  const events = deleted(await trx.deleteFrom('webhook_events').where('organization_uuid', '=', org).executeTakeFirstOrThrow());
  const webhooks = await countLiveWebhooks(trx, org);
  await trx.deleteFrom('webhooks').where('organization_uuid', '=', org).execute();
  const confirmations = deleted(
    await trx.deleteFrom('service_confirmations').where('organization_uuid', '=', org).executeTakeFirstOrThrow(),
  );

  await trx.deleteFrom('appointment_import_upserts').where('schedule_uuid', 'in', orgAppointments).execute();
  const appointments = deleted(
    await trx.deleteFrom('appointment_schedules').where('organization_uuid', '=', org).executeTakeFirstOrThrow(),
  );
  const tags = deleted(await trx.deleteFrom('qr_code_tags').where('organization_uuid', '=', org).executeTakeFirstOrThrow());
  const qrcodes = deleted(await trx.deleteFrom('qrcodes').where('organization_uuid', '=', org).executeTakeFirstOrThrow());

  await trx.deleteFrom('service_categories').where('service_uuid', 'in', orgServices).execute();
  const services = deleted(await trx.deleteFrom('services').where('organization_uuid', '=', org).executeTakeFirstOrThrow());
  await moveCatalogVersion(trx);
  const handlers = deleted(await trx.deleteFrom('import_handlers').where('organization_uuid', '=', org).executeTakeFirstOrThrow());

  await trx.deleteFrom('import_drafts').where('organization_uuid', '=', org).execute();
  const excludedRows = deleted(await trx.deleteFrom('import_excluded_rows').where('task_uuid', 'in', orgTasks).executeTakeFirstOrThrow());
  await trx.deleteFrom('import_jobs').where('task_uuid', 'in', orgTasks).execute();
  const tasks = deleted(await trx.deleteFrom('background_tasks').where('organization_uuid', '=', org).executeTakeFirstOrThrow());

  await trx.deleteFrom('inbox_relays').where('message_uuid', 'in', orgMessages).execute();
  const messages = deleted(await trx.deleteFrom('inbox_messages').where('inbox_uuid', 'in', orgInboxes).executeTakeFirstOrThrow());
  const inboxes = deleted(await trx.deleteFrom('inboxes').where('organization_uuid', '=', org).executeTakeFirstOrThrow());

  return {
    counts: {
      qrcodes,
      tags,
      appointments,
      services,
      import_handlers: handlers,
      tasks,
      excluded_rows: excludedRows,
      webhooks,
      webhook_events: events,
      deliveries,
      service_confirmations: confirmations,
      inboxes,
      inbox_messages: messages,
    },
    uploadFiles: uploads.map((u) => u.upload_file),
  };
}
