import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ConfirmationListQuery, ServiceConfirmation } from './schemas.ts';
import { countedSlice, pageSlice } from '../db/counted-page.ts';

export async function insertConfirmation(db: Kysely<Database>, confirmation: ServiceConfirmation): Promise<void> {
  await db
    .insertInto('service_confirmations')
    .values({
      uuid: confirmation.uuid,
      organization_uuid: confirmation.organization_uuid,
      qr_code_uuid: confirmation.qr_code_uuid,
      user_uuid: confirmation.user_uuid,
      status: confirmation.status,
      data: JSON.stringify(confirmation),
      created_on: confirmation.created_on,
    })
    .execute();
}

const parse = (row: { data: string }) => JSON.parse(row.data) as ServiceConfirmation;

/** The user's latest confirmation in the organization (the previous one of the next). */
export async function latestOfUser(
  db: Kysely<Database>,
  organizationUuid: string,
  userUuid: string,
): Promise<ServiceConfirmation | undefined> {
  const row = await db
    .selectFrom('service_confirmations')
    .select('data')
    .where('organization_uuid', '=', organizationUuid)
    .where('user_uuid', '=', userUuid)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && parse(row);
}

/** The user's latest check-in at the QR code, if it is later than their latest check-out there. */
export async function openCheckIn(
  db: Kysely<Database>,
  organizationUuid: string,
  userUuid: string,
  qrCodeUuid: string,
): Promise<ServiceConfirmation | undefined> {
  const row = await db
    .selectFrom('service_confirmations')
    .select(['data', 'status'])
    .where('organization_uuid', '=', organizationUuid)
    .where('user_uuid', '=', userUuid)
    .where('qr_code_uuid', '=', qrCodeUuid)
    .where('status', 'in', ['CHECK_IN', 'CHECK_OUT'])
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.status === 'CHECK_IN' ? parse(row) : undefined;
}

export async function findConfirmation(
  db: Kysely<Database>,
  organizationUuid: string,
  uuid: string,
): Promise<ServiceConfirmation | undefined> {
  const row = await db
    .selectFrom('service_confirmations')
    .select('data')
    .where('uuid', '=', uuid)
    .where('organization_uuid', '=', organizationUuid)
    .executeTakeFirst();
  return row && parse(row);
}

export async function listConfirmations(
  db: Kysely<Database>,
  query: ConfirmationListQuery,
): Promise<{ items: ServiceConfirmation[]; total: number }> {
  let base = db.selectFrom('service_confirmations').where('organization_uuid', '=', query.organization_uuid);
  if (query.status) base = base.where('status', '=', query.status);
  if (query.qr_code_uuid) base = base.where('qr_code_uuid', '=', query.qr_code_uuid);
  const { rows, total } = await countedSlice(base, pageSlice(query), (q) => q.select('data').orderBy('seq', 'desc'));
  return { items: rows.map(parse), total };
}
