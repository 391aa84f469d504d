import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { param, prepare, prepareRepeated, type RepeatedParams } from '../db/prepared.ts';
import { uuid7 } from '../db/uuid7.ts';
import type { GeoResult } from '../geocoding/geocoder.ts';
import type { BatchWriter, WriterEnv } from '../imports/kind.ts';
import { locatedWarning } from '../imports/engine/located-warning.ts';
import { notLocatedError } from '../imports/engine/not-located.ts';
import { KnownKeys } from '../imports/engine/known-keys.ts';
import { nowIso } from '../time.ts';
import { storedAddress } from './address.ts';
import type { QrImportRow } from './import-row.ts';
import { DEFAULT_QR_CODE_TYPE } from './qrcodes.ts';
import { QR_CODE_RECORD_FIELDS, type QrCodeRecordField } from './record-fields.ts';
import { INDEX_INSERTED_SINCE_SQL } from './search-index.ts';

/** Counter names of a QR code import. */
export const QR_COUNTERS = { inserted: 'inserted', restored: 'restored', updated: 'updated', tagsCreated: 'tags_created' } as const;

interface Match {
  uuid: string;
  deleted_on: string | null;
  rowid: number;
}

type RecordField = QrCodeRecordField;

/** The (name, location) keys of the organization's QR codes without a reference, the soft-deleted too (qrcodes_by_name_location). */
export const UNREFERENCED_KEYS = {
  select: 'select name, location from qrcodes where organization_uuid = ? and external_reference_id is null',
  count: 'select count(*) from qrcodes where organization_uuid = ? and external_reference_id is null',
};

/**
 * Written into the row statements' SQL when they repeat (server/db/prepared.ts): most files give
 * every row the same type and leave label, data and QR code name empty, and the geocoder gives a
 * few states, countries, precisions and time zones.
 */
const REPEATED: RepeatedParams<RecordField> = {
  values: ['type', 'state', 'country', 'precision', 'timezone_name'],
  nulls: ['label', 'data', 'qr_code_name'],
};

/**
 * Writes QR code import rows with statements compiled once. Identity within the organization:
 * the external reference when given, else (name, location) among QR codes without a reference. A soft-deleted match is restored,
 * a live match updated, anything else inserted; an import run twice changes nothing twice.
 */
export function openQrCodeWriter(env: WriterEnv): BatchWriter<QrImportRow> {
  const { db, organizationUuid, geocoder } = env;
  const k = db.kysely;
  const now = nowIso();
  // The same for every row of this run: written into the statements instead of bound per row.
  const fixed = { org: organizationUuid, now };
  const byExternal = prepare<'ext'>(
    db.sqlite,
    k
      .selectFrom('qrcodes')
      .select(['uuid', 'deleted_on', sql<number>`rowid`.as('rowid')])
      .where('organization_uuid', '=', param('org'))
      .where('external_reference_id', '=', param('ext')),
    fixed,
  );
  const byNameLocation = prepare<'name' | 'location' | 'one'>(
    db.sqlite,
    k
      .selectFrom('qrcodes')
      .select(['uuid', 'deleted_on', sql<number>`rowid`.as('rowid')])
      .where('organization_uuid', '=', param('org'))
      .where('name', '=', param('name'))
      .where('location', '=', param('location'))
      .where('external_reference_id', 'is', null)
      .orderBy('deleted_on')
      .limit(param<number>('one')),
    fixed,
  );
  const fieldParams = Object.fromEntries(QR_CODE_RECORD_FIELDS.map((f) => [f, param(f)])) as Record<RecordField, string>;
  const insertQuery = k.insertInto('qrcodes').values({
    uuid: param('uuid'),
    organization_uuid: param('org'),
    ...fieldParams,
    latitude: param<number>('latitude'),
    longitude: param<number>('longitude'),
    created_on: param('now'),
    updated_on: param('now'),
  });
  const insert = prepareRepeated<RecordField | 'uuid'>(db.sqlite, insertQuery, fixed, REPEATED);
  /** New rows with a reference are the common case: insert, and look up only when the reference exists. */
  const insertNewReference = prepareRepeated<RecordField | 'uuid'>(
    db.sqlite,
    insertQuery.onConflict((oc) =>
      oc.columns(['organization_uuid', 'external_reference_id']).where('external_reference_id', 'is not', null).doNothing(),
    ),
    fixed,
    REPEATED,
  );
  const update = prepareRepeated<RecordField | 'uuid' | 'deleted'>(
    db.sqlite,
    k
      .updateTable('qrcodes')
      .set({
        ...fieldParams,
        latitude: param<number>('latitude'),
        longitude: param<number>('longitude'),
        updated_on: param('now'),
        deleted_on: param('deleted'),
      })
      .where('uuid', '=', param('uuid')),
    fixed,
    REPEATED,
  );
  // New rows get rowids above every existing one: the batch's new rows are those from its first insert's rowid on.
  const indexInsertedSince = db.sqlite.prepare<[number | bigint]>(INDEX_INSERTED_SINCE_SQL);
  let firstInserted: number | bigint | null = null;
  const indexed = (inserted: { lastInsertRowid: number | bigint }) => {
    firstInserted ??= inserted.lastInsertRowid;
  };
  const indexPending = () => {
    if (firstInserted === null) return;
    indexInsertedSince.run(firstInserted);
    firstInserted = null;
  };
  const unreferenced = new KnownKeys(db.sqlite, UNREFERENCED_KEYS, organizationUuid);
  const endBatch = () => {
    indexPending();
    unreferenced.endBatch();
  };
  const tagByNameNumber = prepare<'name' | 'number'>(
    db.sqlite,
    k
      .selectFrom('qr_code_tags')
      .select(['uuid', 'qr_code_uuid'])
      .where('organization_uuid', '=', param('org'))
      .where('tag_name', '=', param('name'))
      .where('tag_number', '=', param('number')),
    fixed,
  );
  const insertTag = prepare<'uuid' | 'qr' | 'name' | 'number' | 'display'>(
    db.sqlite,
    k.insertInto('qr_code_tags').values({
      uuid: param('uuid'),
      organization_uuid: param('org'),
      qr_code_uuid: param('qr'),
      tag_name: param('name'),
      tag_number: param('number'),
      tag_display_name: param('display'),
      created_on: param('now'),
    }),
    fixed,
  );

  /**
   * Every statement's parameters for one row, in one object (statements pick theirs by name),
   * refilled for each row: the statements run synchronously and keep nothing of it.
   */
  const values = {
    type: '',
    name: '',
    label: null as string | null,
    location: '',
    address_line_1: null as string | null,
    suburb: null as string | null,
    state: null as string | null,
    postcode: null as string | null,
    country: null as string | null,
    latitude: 0,
    longitude: 0,
    precision: '',
    timezone_name: '',
    data: null as string | null,
    qr_code_name: null as string | null,
    external_reference_id: null as string | null,
    uuid: '',
    deleted: null,
  };
  const record = (row: QrImportRow, name: string, external: string | null, located: GeoResult) => {
    const stored = storedAddress(row, located);
    values.type = row.type ?? DEFAULT_QR_CODE_TYPE;
    values.name = name;
    values.label = row.label ?? null;
    values.location = row.location;
    values.address_line_1 = stored.address_line_1;
    values.suburb = stored.suburb;
    values.state = stored.state;
    values.postcode = stored.postcode;
    values.country = stored.country;
    values.latitude = stored.latitude;
    values.longitude = stored.longitude;
    values.precision = stored.precision;
    values.timezone_name = stored.timezone_name;
    values.data = row.data ?? null;
    values.qr_code_name = row.qr_code_name ?? null;
    values.external_reference_id = external;
    values.uuid = '';
    return values;
  };
  return {
    endBatch,
    write(row, index, tally) {
      const located = geocoder.locate(row);
      if (!located) return notLocatedError(geocoder, row);
      // Recorded once the row is written: a row excluded later in this call gets its error only.
      const warning = env.warn ? locatedWarning(geocoder, row, located) : null;
      const external = row.qr_code_external_reference_id ?? null;
      const name = row.name ?? row.location;
      const hasTag = Boolean(row.tag_name && row.tag_number);
      const values = record(row, name, external, located);
      if (external && !hasTag) {
        values.uuid = uuid7();
        const inserted = insertNewReference.run(values);
        if (inserted.changes === 1) {
          indexed(inserted);
          tally(QR_COUNTERS.inserted);
          if (warning !== null) env.warn?.(index, warning);
          env.wrote?.(index, values.uuid, identity(external, name, row.location), 'QR code');
          return null;
        }
      }
      const match = external
        ? byExternal.get<Match>({ ext: external })
        : unreferenced.find(name, row.location, () => byNameLocation.get<Match>({ name, location: row.location, one: 1 }));
      let tag: { uuid: string; qr_code_uuid: string } | undefined;
      if (hasTag && row.tag_name && row.tag_number) {
        tag = tagByNameNumber.get({ name: row.tag_name, number: row.tag_number });
        if (tag && tag.qr_code_uuid !== match?.uuid) {
          return `tag_number: tag ${row.tag_name} ${row.tag_number} already belongs to another QR code.`;
        }
      }
      let uuid: string;
      if (match) {
        uuid = match.uuid;
        values.uuid = uuid;
        // The index's update trigger removes the row's old terms, so a row this batch inserted must be in the index first.
        if (firstInserted !== null && match.rowid >= firstInserted) indexPending();
        update.run(values);
        tally(match.deleted_on ? QR_COUNTERS.restored : QR_COUNTERS.updated);
      } else {
        uuid = uuid7();
        values.uuid = uuid;
        indexed(insert.run(values));
        if (!external) unreferenced.add(name, row.location);
        tally(QR_COUNTERS.inserted);
      }
      if (hasTag && row.tag_name && row.tag_number && !tag) {
        insertTag.run({
          uuid: randomUUID(),
          qr: uuid,
          name: row.tag_name,
          number: row.tag_number,
          display: row.tag_display_name ?? `${row.tag_name} ${row.tag_number}`,
        });
        tally(QR_COUNTERS.tagsCreated);
      }
      if (warning !== null) env.warn?.(index, warning);
      env.wrote?.(index, uuid, identity(external, name, row.location), 'QR code');
      return null;
    },
  };
}

/** What identifies a QR code of an import row, column first: its external reference, else its name and location. */
function identity(external: string | null, name: string, location: string): string {
  return external !== null ? `qr_code_external_reference_id: ${external}` : `name and location: "${name}" at "${location}"`;
}
