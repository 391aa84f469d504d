import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { uuid7 } from '../server/db/uuid7.ts';
import { INDEX_INSERTED_SINCE_SQL } from '../server/qrcodes/search-index.ts';
import { configureWorkerConnection } from '../server/imports/workers/worker-connection.ts';

/**
 * The same-stack floor of an import (issue 15): the same CSV rows parsed with papaparse and
 * inserted with prepared better-sqlite3 statements into the same tables and indexes (a copy of
 * the server's migrated database), in 5,000-row transactions, on a connection set up as an import
 * worker's. No validation, no geocoding, no time zones: what any import of these rows must cost.
 */
const BATCH_ROWS = 5000;

function openLikeWorker(dbFile: string): SQLite.Database {
  const db = new SQLite(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  configureWorkerConnection(db);
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
  prepare: (db: SQLite.Database) => FloorWriter,
  rowsOf: FloorRows = csvRows,
): Promise<{ seconds: number; rows: number }> {
  const started = performance.now();
  const db = openLikeWorker(dbFile);
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
 * codes without one (the matching rule: an import run twice changes nothing twice), as the import does.
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
      let firstInserted: number | bigint | null = null;
      const now = new Date().toISOString();
      const write = (row: Record<string, string>) => {
        const name = row.name || row.location;
        const reference = orNull(row.qr_code_external_reference_id);
        if (reference === null && byNameLocation.get(organizationUuid, name, row.location)) return;
        const inserted = insert.run(
          uuid7(),
          organizationUuid,
          name,
          row.location,
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
      };
      const endBatch = () => {
        if (firstInserted !== null) indexSince.run(firstInserted);
        firstInserted = null;
      };
      return { write, endBatch };
    },
    rowsOf,
  );
}

/**
 * Appointment rows (bench/appointment-data.ts columns) into appointment_schedules; a tag seen for
 * the first time gets its QR code and tag row, as the real import does.
 */
export function appointmentFloor(dbFile: string, csvFile: string, organizationUuid: string): Promise<{ seconds: number; rows: number }> {
  return load(dbFile, csvFile, (db) => {
    const services = new Map(
      (
        db.prepare('select uuid, name from services where organization_uuid = ? and deleted_on is null').all(organizationUuid) as {
          uuid: string;
          name: string;
        }[]
      ).map((s) => [s.name, s.uuid]),
    );
    const insertQrCode = db.prepare(
      `insert into qrcodes (uuid, organization_uuid, type, name, location, created_on, updated_on) values (?, ?, 'SITE', ?, ?, ?, ?)`,
    );
    const insertTag = db.prepare(
      'insert into qr_code_tags (uuid, organization_uuid, qr_code_uuid, tag_name, tag_number, tag_display_name, created_on) values (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertSchedule = db.prepare(
      `insert into appointment_schedules (uuid, organization_uuid, qr_code_uuid, qr_code_tag_uuid, service_uuid, service, location, appointment_date, start_date_time, end_date_time,
         start_utc, end_utc, duration, timezone_name, job_reference_id, created_on, updated_on)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const tags = new Map<string, { tag: string; qr: string }>();
    const now = new Date().toISOString();
    const write = (row: Record<string, string>) => {
      const key = `${row.tag_name}\u0000${row.tag_number}`;
      let tag = tags.get(key);
      if (!tag) {
        tag = { tag: randomUUID(), qr: uuid7() };
        insertQrCode.run(tag.qr, organizationUuid, row.location, row.location, now, now);
        insertTag.run(tag.tag, organizationUuid, tag.qr, row.tag_name, row.tag_number, `${row.tag_name} ${row.tag_number}`, now);
        tags.set(key, tag);
      }
      const service = services.get(row.service ?? '');
      if (!service) throw new Error(`The floor needs service ${row.service} in the organization`);
      const start = row.start_date_time ?? '';
      const utc = `${start.replace(' ', 'T')}:00Z`;
      insertSchedule.run(
        uuid7(),
        organizationUuid,
        tag.qr,
        tag.tag,
        service,
        row.service,
        row.location,
        start.slice(0, 10),
        start,
        start,
        utc,
        utc,
        Number(row.duration),
        'Australia/Sydney',
        orNull(row.job_reference_id),
        now,
        now,
      );
    };
    return { write };
  });
}
