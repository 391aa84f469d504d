import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { JOB_REFERENCES } from '../server/appointments/importer.ts';
import { uuid7 } from '../server/db/uuid7.ts';
import { KnownKeys } from '../server/imports/engine/known-keys.ts';
import { UNREFERENCED_KEYS } from '../server/qrcodes/import-writer.ts';
import { INDEX_INSERTED_SINCE_SQL } from '../server/qrcodes/search-index.ts';
import type { ImportKindId } from '../server/imports/schemas.ts';
import { configureWorkerConnection, sizeCacheFor } from '../server/imports/workers/worker-connection.ts';

/**
 * The same-stack floor of an import (issue 15): the same CSV rows parsed with papaparse and
 * inserted with prepared better-sqlite3 statements into the same tables and indexes (a copy of
 * the server's migrated database), in 5,000-row transactions, on a connection set up as an import
 * worker's. It writes what the import writes (the same rows, the same search index, batch by batch)
 * and looks up what the import must look up to know whether a row is new, the same way (a Bloom
 * filter of the organization's keys, KnownKeys, then the index); no validation, no geocoding, no
 * time zones: what any import of these rows must cost. test/imports/bench-floor-parity.test.ts
 * holds the floor and the import to the same tables, rows and search index.
 */
const BATCH_ROWS = 5000;

function openLikeWorker(dbFile: string, kind: ImportKindId): SQLite.Database {
  const db = new SQLite(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  configureWorkerConnection(db);
  sizeCacheFor(db, kind);
  db.pragma('wal_autocheckpoint = 20000');
  return db;
}

/** A file's data rows as objects by header: the CSV read by papaparse, a workbook's first sheet by exceljs's streaming reader. */
export type FloorRows = (file: string, onRow: (row: Record<string, string>) => void) => Promise<void>;

export const csvRows: FloorRows = (file, onRow) =>
  new Promise<void>((resolve, reject) => {
    let header: string[] | null = null;
    Papa.parse<string[]>(fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 }), {
      chunk(results) {
        for (const cells of results.data) {
          if (!header) {
            header = cells;
            continue;
          }
          if (cells.length < header.length) continue;
          const row: Record<string, string> = {};
          for (let i = 0; i < header.length; i++) row[header[i] ?? ''] = cells[i] ?? '';
          onRow(row);
        }
      },
      complete: () => resolve(),
      error: reject,
    });
  });

/** Cells as the text a CSV would hold (postcodes stored as numbers come back as their digits). */
export const xlsxRows: FloorRows = async (file, onRow) => {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(fs.createReadStream(file, { highWaterMark: 1 << 20 }), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  for await (const sheet of reader) {
    let header: string[] | null = null;
    for await (const row of sheet as unknown as AsyncIterable<{ values: unknown[] }>) {
      const values = row.values;
      if (!header) {
        header = values.slice(1).map(String);
        continue;
      }
      const record: Record<string, string> = {};
      for (let i = 0; i < header.length; i++) {
        const value = values[i + 1];
        record[header[i] ?? ''] = value === undefined || value === null ? '' : String(value);
      }
      onRow(record);
    }
    break;
  }
};

/** Writes one row; endBatch runs last in each batch's transaction. */
interface FloorWriter {
  write(row: Record<string, string>): void;
  endBatch?(): void;
}

/** Streams a file's data rows through `write`, 5,000 per transaction; answers seconds and rows. */
async function load(
  dbFile: string,
  file: string,
  kind: ImportKindId,
  prepare: (db: SQLite.Database) => FloorWriter,
  rowsOf: FloorRows = csvRows,
): Promise<{ seconds: number; rows: number }> {
  const started = performance.now();
  const db = openLikeWorker(dbFile, kind);
  const { write, endBatch } = prepare(db);
  let pending: Record<string, string>[] = [];
  let rows = 0;
  const commit = db.transaction((batch: Record<string, string>[]) => {
    for (const row of batch) write(row);
    endBatch?.();
  });
  const flush = () => {
    commit.immediate(pending);
    rows += pending.length;
    pending = [];
  };
  await rowsOf(file, (row) => {
    pending.push(row);
    if (pending.length >= BATCH_ROWS) flush();
  });
  flush();
  db.pragma('wal_checkpoint(PASSIVE)');
  db.close();
  return { seconds: (performance.now() - started) / 1000, rows };
}

const orNull = (value: string | undefined) => (value ? value : null);

/**
 * QR code rows (bench/qr-data.ts columns) into qrcodes. An imported QR code also stores where it
 * is (latitude, longitude, precision, time zone: the geocoder's answer), so the floor writes those
 * columns too, with one fixed place: the same columns and row size as the import stores, without
 * the geocoding. A row without a reference is first looked up by name and location among the QR
 * codes without one (the matching rule: an import run twice changes nothing twice), as the import
 * does: the index only for a key the Bloom filter of the organization's keys may hold.
 * Each batch's new rows go into the search index (qrcode_search) with the import's own statement:
 * the stored result is the same, searchable.
 */
export function qrCodeFloor(
  dbFile: string,
  file: string,
  organizationUuid: string,
  rowsOf: FloorRows = csvRows,
): Promise<{ seconds: number; rows: number }> {
  return load(
    dbFile,
    file,
    'qrcodes',
    (db) => {
      const insert = db.prepare(
        `insert into qrcodes (uuid, organization_uuid, type, name, location, address_line_1, suburb, state, postcode, country,
         latitude, longitude, precision, timezone_name, external_reference_id, created_on, updated_on)
       values (?, ?, 'SITE', ?, ?, ?, ?, ?, ?, ?, -33.8688, 151.2093, 'postcode', 'Australia/Sydney', ?, ?, ?)`,
      );
      const byNameLocation = db.prepare(
        'select uuid from qrcodes where organization_uuid = ? and name = ? and location = ? and external_reference_id is null order by deleted_on limit 1',
      );
      const indexSince = db.prepare(INDEX_INSERTED_SINCE_SQL);
      const unreferenced = new KnownKeys(db, UNREFERENCED_KEYS, organizationUuid);
      let firstInserted: number | bigint | null = null;
      const now = new Date().toISOString();
      const write = (row: Record<string, string>) => {
        const location = row.location ?? '';
        const name = row.name || location;
        const reference = orNull(row.qr_code_external_reference_id);
        if (reference === null && unreferenced.find(name, location, () => byNameLocation.get(organizationUuid, name, location))) return;
        const inserted = insert.run(
          uuid7(),
          organizationUuid,
          name,
          location,
          orNull(row.address_line_1),
          orNull(row.suburb),
          orNull(row.state),
          orNull(row.postcode),
          orNull(row.country),
          reference,
          now,
          now,
        );
        firstInserted ??= inserted.lastInsertRowid;
        if (reference === null) unreferenced.add(name, location);
      };
      const endBatch = () => {
        if (firstInserted !== null) indexSince.run(firstInserted);
        firstInserted = null;
        unreferenced.endBatch();
      };
      return { write, endBatch };
    },
    rowsOf,
  );
}

const FIXED_OFFSET = '+10:00';
const FIXED_OFFSET_MS = 10 * 3_600_000;

/**
 * An appointment's times as the import stores them (local with its offset, and UTC; the end is the
 * start plus the duration), at one fixed offset: the same values and sizes, without the time zones.
 */
function zonedTimes(start: string, minutes: number): { date: string; start: string; end: string; startUtc: string; endUtc: string } {
  const local = `${start.replace(' ', 'T')}:00`;
  const startMs = Date.parse(`${local}Z`) - FIXED_OFFSET_MS;
  const endMs = startMs + minutes * 60_000;
  const endLocal = new Date(endMs + FIXED_OFFSET_MS).toISOString().slice(0, 19);
  return {
    date: start.slice(0, 10),
    start: `${local}${FIXED_OFFSET}`,
    end: `${endLocal}${FIXED_OFFSET}`,
    startUtc: `${new Date(startMs).toISOString().slice(0, 19)}Z`,
    endUtc: `${new Date(endMs).toISOString().slice(0, 19)}Z`,
  };
}

/**
 * Appointment rows (bench/appointment-data.ts columns) into appointment_schedules; a tag seen for
 * the first time gets its QR code and tag row, and the QR code goes into the search index at the
 * batch's end, as the real import does.
 */
export function appointmentFloor(dbFile: string, csvFile: string, organizationUuid: string): Promise<{ seconds: number; rows: number }> {
  return load(dbFile, csvFile, 'appointments', (db) => {
    const services = new Map(
      (
        db.prepare('select uuid, name from services where organization_uuid = ? and deleted_on is null').all(organizationUuid) as {
          uuid: string;
          name: string;
        }[]
      ).map((s) => [s.name, s.uuid]),
    );
    // A new tag's QR code stores where it is, as the import's does (the geocoder's answer): one fixed place here.
    const insertQrCode = db.prepare(
      `insert into qrcodes (uuid, organization_uuid, type, name, location, suburb, state, postcode, country, latitude, longitude, precision, timezone_name, created_on, updated_on)
       values (?, ?, 'SITE', ?, ?, 'Sydney', 'NSW', '2000', 'AU', -33.8688, 151.2093, 'postcode', 'Australia/Sydney', ?, ?)`,
    );
    const insertTag = db.prepare(
      'insert into qr_code_tags (uuid, organization_uuid, qr_code_uuid, tag_name, tag_number, tag_display_name, created_on) values (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertSchedule = db.prepare(
      `insert into appointment_schedules (uuid, organization_uuid, qr_code_uuid, qr_code_tag_uuid, service_uuid, service, location, appointment_date, start_date_time, end_date_time,
         start_utc, end_utc, duration, timezone_name, job_reference_id, created_on, updated_on)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const indexSince = db.prepare(INDEX_INSERTED_SINCE_SQL);
    let firstInserted: number | bigint | null = null;
    const findTag = db.prepare(
      'select uuid, qr_code_uuid from qr_code_tags where organization_uuid = ? and tag_name = ? and tag_number = ?',
    );
    const findQrCodeAt = db.prepare(
      'select uuid from qrcodes where organization_uuid = ? and name = ? and location = ? and external_reference_id is null order by deleted_on limit 1',
    );
    const findByReference = db.prepare('select * from appointment_schedules where organization_uuid = ? and job_reference_id = ?');
    const jobReferences = new KnownKeys(db, JOB_REFERENCES, organizationUuid);
    const tags = new Map<string, { tag: string; qr: string }>();
    const now = new Date().toISOString();
    /** A tag seen for the first time is looked up; a new one goes on the QR code at its address, found or created. */
    const tagOf = (row: Record<string, string>) => {
      const key = `${row.tag_name}\u0000${row.tag_number}`;
      let tag = tags.get(key);
      if (tag) return tag;
      const found = findTag.get(organizationUuid, row.tag_name, row.tag_number) as { uuid: string; qr_code_uuid: string } | undefined;
      if (found) tag = { tag: found.uuid, qr: found.qr_code_uuid };
      else {
        const location = row.location ?? '';
        let qr = (findQrCodeAt.get(organizationUuid, location, location) as { uuid: string } | undefined)?.uuid;
        if (!qr) {
          qr = uuid7();
          const inserted = insertQrCode.run(qr, organizationUuid, location, location, now, now);
          firstInserted ??= inserted.lastInsertRowid;
        }
        tag = { tag: randomUUID(), qr };
        insertTag.run(tag.tag, organizationUuid, tag.qr, row.tag_name, row.tag_number, `${row.tag_name} ${row.tag_number}`, now);
      }
      tags.set(key, tag);
      return tag;
    };
    const write = (row: Record<string, string>) => {
      const tag = tagOf(row);
      const reference = orNull(row.job_reference_id);
      if (reference !== null && jobReferences.find(reference, '', () => findByReference.get(organizationUuid, reference))) return;
      const service = services.get(row.service ?? '');
      if (!service) throw new Error(`The floor needs service ${row.service} in the organization`);
      const times = zonedTimes(row.start_date_time ?? '', Number(row.duration));
      insertSchedule.run(
        uuid7(),
        organizationUuid,
        tag.qr,
        tag.tag,
        service,
        row.service,
        row.location,
        times.date,
        times.start,
        times.end,
        times.startUtc,
        times.endUtc,
        Number(row.duration),
        'Australia/Sydney',
        reference,
        now,
        now,
      );
      if (reference !== null) jobReferences.add(reference);
    };
    const endBatch = () => {
      if (firstInserted !== null) indexSince.run(firstInserted);
      firstInserted = null;
      jobReferences.endBatch();
    };
    return { write, endBatch };
  });
}
