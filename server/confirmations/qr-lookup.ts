import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../time.ts';
import { demoQrCode } from './demo-data.ts';

/** What a confirmation needs to know about its QR code (read straight from the qrcodes tables). */
export interface QrCodeForConfirmation {
  uuid: string;
  organization_uuid: string;
  name: string;
  location: string;
  latitude: number | null;
  longitude: number | null;
  tags: { uuid: string; tag_name: string; tag_number: string; tag_display_name: string }[];
}

async function withTags(db: Kysely<Database>, row: Omit<QrCodeForConfirmation, 'tags'>): Promise<QrCodeForConfirmation> {
  const tags = await db
    .selectFrom('qr_code_tags')
    .select(['uuid', 'tag_name', 'tag_number', 'tag_display_name'])
    .where('qr_code_uuid', '=', row.uuid)
    .orderBy('created_on')
    .orderBy('uuid')
    .execute();
  return { ...row, tags };
}

const qrColumns = ['uuid', 'organization_uuid', 'name', 'location', 'latitude', 'longitude'] as const;

/** A live QR code of the organization, or undefined. */
export async function findQrCode(db: Kysely<Database>, organizationUuid: string, uuid: string): Promise<QrCodeForConfirmation | undefined> {
  const row = await db
    .selectFrom('qrcodes')
    .select(qrColumns)
    .where('uuid', '=', uuid)
    .where('organization_uuid', '=', organizationUuid)
    .where('deleted_on', 'is', null)
    .executeTakeFirst();
  return row && withTags(db, row);
}

/**
 * A random live QR code of the organization, preferring located ones with a tag. It seeks from a
 * random rowid (wrapping around) instead of counting and skipping rows, so it costs the same with a
 * million QR codes as with ten; the pick is near-uniform, which is all a simulation needs. Tagged
 * codes are sought from their tags: seeking them among the QR codes scanned every untagged one
 * (an import's million) on each call, on the server's thread.
 */
export async function randomQrCode(
  db: Kysely<Database>,
  organizationUuid: string,
  random: () => number,
): Promise<QrCodeForConfirmation | undefined> {
  const tagged = db
    .selectFrom('qr_code_tags as t')
    .innerJoin('qrcodes', 'qrcodes.uuid', 't.qr_code_uuid')
    .select(qrColumns.map((c) => `qrcodes.${c}` as const))
    // Unary + keeps SQLite off the organization index (it would read and sort all the organization's tags): seek by rowid.
    .where(sql`+t.organization_uuid`, '=', organizationUuid)
    .where('qrcodes.deleted_on', 'is', null)
    .where('qrcodes.latitude', 'is not', null);
  const any = db.selectFrom('qrcodes').select(qrColumns).where('organization_uuid', '=', organizationUuid).where('deleted_on', 'is', null);
  type Row = Omit<QrCodeForConfirmation, 'tags'>;
  /** The first row at or after a random rowid of `table`, else the first before it. */
  const seek = async (table: 'qr_code_tags' | 'qrcodes', from: (start: number, after: boolean) => Promise<Row | undefined>) => {
    const last = await db.selectFrom(table).select(sql<number | null>`max(rowid)`.as('n')).executeTakeFirst();
    const start = Math.floor(random() * Number(last?.n ?? 0)) + 1;
    return (await from(start, true)) ?? (await from(start, false));
  };
  const row =
    (await seek('qr_code_tags', (start, after) =>
      tagged
        .where(sql`t.rowid`, after ? '>=' : '<', start)
        .orderBy(sql`t.rowid`)
        .limit(1)
        .executeTakeFirst(),
    )) ??
    (await seek('qrcodes', (start, after) =>
      any
        .where(sql`qrcodes.rowid`, after ? '>=' : '<', start)
        .orderBy(sql`qrcodes.rowid`)
        .limit(1)
        .executeTakeFirst(),
    ));
  if (row) return withTags(db, row);
  return undefined;
}

/**
 * The organization's QR code for simulations: a random existing one, else a demo site with a tag,
 * created once (check and insert in one transaction).
 */
export async function qrCodeForSimulation(
  db: Kysely<Database>,
  organizationUuid: string,
  random: () => number,
): Promise<QrCodeForConfirmation> {
  const existing = await randomQrCode(db, organizationUuid, random);
  if (existing) return existing;
  const uuid = await db.transaction().execute(async (trx) => {
    const again = await randomQrCode(trx, organizationUuid, random);
    if (again) return again.uuid;
    const now = nowIso();
    const { tag, ...site } = demoQrCode;
    const qrUuid = randomUUID();
    await trx
      .insertInto('qrcodes')
      .values({
        uuid: qrUuid,
        organization_uuid: organizationUuid,
        ...site,
        label: null,
        precision: 'postcode',
        data: null,
        external_reference_id: null,
        created_on: now,
        updated_on: now,
        deleted_on: null,
      })
      .execute();
    await trx
      .insertInto('qr_code_tags')
      .values({ uuid: randomUUID(), organization_uuid: organizationUuid, qr_code_uuid: qrUuid, ...tag, created_on: now })
      .execute();
    return qrUuid;
  });
  const created = await findQrCode(db, organizationUuid, uuid);
  if (!created) throw new Error(`demo QR code ${uuid} vanished`);
  return created;
}
