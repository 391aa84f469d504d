import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { outsideTransaction } from '../db/outside-transaction.ts';
import { param, perDatabase, prepare, type Prepared } from '../db/prepared.ts';
import { indexQrCode } from '../qrcodes/search-index.ts';
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

const qrColumns = ['uuid', 'organization_uuid', 'name', 'location', 'latitude', 'longitude'] as const;
type Row = Omit<QrCodeForConfirmation, 'tags'>;
type Seek = Prepared<'organization_uuid' | 'start'>;

/**
 * The lookups' statements, compiled once per database: simulations run them on every event. The
 * random pick seeks from a random rowid (wrapping around) instead of counting and skipping rows, so
 * it costs the same with a million QR codes as with ten; the pick is near-uniform, which is all a
 * simulation needs. Tagged codes are sought from their tags: seeking them among the QR codes
 * scanned every untagged one (an import's million) on each call, on the server's thread.
 */
function lookupStatements(db: Db) {
  const k = db.kysely;
  const tagged = k
    .selectFrom('qr_code_tags as t')
    .innerJoin('qrcodes', 'qrcodes.uuid', 't.qr_code_uuid')
    .select(qrColumns.map((c) => `qrcodes.${c}` as const))
    // Unary + keeps SQLite off the organization index (it would read and sort all the organization's tags): seek by rowid.
    .where(sql`+t.organization_uuid`, '=', param('organization_uuid'))
    .where('qrcodes.deleted_on', 'is', null)
    .where('qrcodes.latitude', 'is not', null);
  const any = k
    .selectFrom('qrcodes')
    .select(qrColumns)
    .where('organization_uuid', '=', param('organization_uuid'))
    .where('deleted_on', 'is', null);
  const op = (after: boolean) => (after ? '>=' : '<');
  const seekTagged = (after: boolean): Seek =>
    prepare(db.sqlite, tagged.where(sql`t.rowid`, op(after), param<number>('start')).orderBy(sql`t.rowid`).limit(sql.lit(1)));
  const seekAny = (after: boolean): Seek =>
    prepare(db.sqlite, any.where(sql`qrcodes.rowid`, op(after), param<number>('start')).orderBy(sql`qrcodes.rowid`).limit(sql.lit(1)));
  const lastRowid = (table: 'qr_code_tags' | 'qrcodes') =>
    prepare<never>(db.sqlite, k.selectFrom(table).select(sql<number | null>`max(rowid)`.as('n')));
  return {
    byUuid: prepare<'organization_uuid' | 'uuid'>(
      db.sqlite,
      k
        .selectFrom('qrcodes')
        .select(qrColumns)
        .where('uuid', '=', param('uuid'))
        .where('organization_uuid', '=', param('organization_uuid'))
        .where('deleted_on', 'is', null),
    ),
    tags: prepare<'qr_code_uuid'>(
      db.sqlite,
      k
        .selectFrom('qr_code_tags')
        .select(['uuid', 'tag_name', 'tag_number', 'tag_display_name'])
        .where('qr_code_uuid', '=', param('qr_code_uuid'))
        .orderBy('created_on')
        .orderBy('uuid'),
    ),
    lastTag: lastRowid('qr_code_tags'),
    lastQrCode: lastRowid('qrcodes'),
    taggedFrom: [seekTagged(true), seekTagged(false)] as const,
    anyFrom: [seekAny(true), seekAny(false)] as const,
  };
}

const statementsOf = perDatabase((db) => lookupStatements(db));

function withTags(db: Db, row: Row): QrCodeForConfirmation {
  const tags = statementsOf(db).tags.all<QrCodeForConfirmation['tags'][number]>({ qr_code_uuid: row.uuid });
  return { ...row, tags };
}

/** A live QR code of the organization, or undefined. */
export async function findQrCode(db: Db, organizationUuid: string, uuid: string): Promise<QrCodeForConfirmation | undefined> {
  const open = outsideTransaction(db);
  if (open !== undefined) await open;
  const row = statementsOf(db).byUuid.get<Row>({ organization_uuid: organizationUuid, uuid });
  return row && withTags(db, row);
}

/**
 * A random live QR code of the organization, preferring located ones with a tag (see
 * lookupStatements). Synchronous: call it outside a transaction or inside one of your own.
 */
function randomQrCode(db: Db, organizationUuid: string, random: () => number): QrCodeForConfirmation | undefined {
  const s = statementsOf(db);
  /** The first row at or after a random rowid, else the first before it. */
  const seek = (last: Prepared<never>, [after, before]: readonly [Seek, Seek]) => {
    const start = Math.floor(random() * Number(last.get<{ n: number | null }>({})?.n ?? 0)) + 1;
    const args = { organization_uuid: organizationUuid, start };
    return after.get<Row>(args) ?? before.get<Row>(args);
  };
  const row = seek(s.lastTag, s.taggedFrom) ?? seek(s.lastQrCode, s.anyFrom);
  return row && withTags(db, row);
}

/**
 * The organization's QR code for simulations: a random existing one, else a demo site with a tag,
 * created once (check and insert in one transaction).
 */
export async function qrCodeForSimulation(db: Db, organizationUuid: string, random: () => number): Promise<QrCodeForConfirmation> {
  const open = outsideTransaction(db);
  if (open !== undefined) await open;
  const existing = randomQrCode(db, organizationUuid, random);
  if (existing) return existing;
  const uuid = await db.kysely.transaction().execute(async (trx) => {
    // The transaction holds this connection: a synchronous read runs inside it.
    const again = randomQrCode(db, organizationUuid, random);
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
    await indexQrCode(trx, qrUuid);
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
