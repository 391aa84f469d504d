import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { DATABASE_FILE } from '../server/db/database.ts';
import { uuid7 } from '../server/db/uuid7.ts';
import { migrations } from '../server/db/migrations/index.ts';
import { INDEX_INSERTED_SINCE_SQL } from '../server/qrcodes/search-index.ts';
import { OUT, startChildServer } from './support.ts';

/** How much the big organization holds (issue 15: 1M QR codes and 1M appointments). */
export interface BigOrgSizes {
  qrCodes: number;
  appointments: number;
  tasks: number;
  deliveries: number;
}

export function bigOrgSizes(): BigOrgSizes {
  const n = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  return {
    qrCodes: n('BENCH_BIG_QRCODES', 1_000_000),
    appointments: n('BENCH_BIG_APPOINTMENTS', 1_000_000),
    tasks: n('BENCH_BIG_TASKS', 100_000),
    deliveries: n('BENCH_BIG_DELIVERIES', 1_000_000),
  };
}

const CHUNK = 50_000;

/** Runs `write(i)` for i in [0, count) in transactions of CHUNK rows. */
function fill(db: SQLite.Database, count: number, write: (i: number) => void): void {
  const chunk = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) write(i);
  });
  for (let from = 0; from < count; from += CHUNK) chunk(from, Math.min(count, from + CHUNK));
}

/**
 * Fills the demo organization of a migrated database with direct SQL (not through the API: a
 * million rows through the importer is the thing being measured): QR codes (half with an external
 * reference, every fifth with a tag), appointments on those tags (half with a job reference),
 * finished import tasks, and one (inactive) webhook with delivered deliveries, one event each.
 */
export function populateOrganization(dbFile: string, organizationUuid: string, sizes: BigOrgSizes): void {
  const db = new SQLite(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  try {
    const now = new Date().toISOString();
    const service = db
      .prepare('select uuid, name from services where organization_uuid = ? and deleted_on is null order by name limit 1')
      .get(organizationUuid) as { uuid: string; name: string } | undefined;
    if (!service) throw new Error('the organization has no service to book appointments with');
    const creator =
      (db.prepare('select uuid from api_keys where organization_uuid = ? limit 1').pluck().get(organizationUuid) as string | undefined) ??
      organizationUuid;

    const insertQr = db.prepare(
      `insert into qrcodes (uuid, organization_uuid, type, name, location, address_line_1, suburb, state, postcode, country, latitude, longitude, precision, timezone_name, external_reference_id, created_on, updated_on)
       values (?, ?, 'SITE', ?, ?, ?, 'Sydney', 'NSW', '2000', 'Australia', -33.87, 151.21, 'SUBURB', 'Australia/Sydney', ?, ?, ?)`,
    );
    const insertTag = db.prepare(
      'insert into qr_code_tags (uuid, organization_uuid, qr_code_uuid, tag_name, tag_number, tag_display_name, created_on) values (?, ?, ?, ?, ?, ?, ?)',
    );
    const tags: { tag: string; qr: string; location: string }[] = [];
    const firstQr = db.prepare('select coalesce(max(rowid), 0) + 1 from qrcodes').pluck().get() as number;
    fill(db, sizes.qrCodes, (i) => {
      const qr = uuid7();
      const street = `${i + 1} Existing Street`;
      const location = `${street}, Sydney NSW 2000`;
      insertQr.run(qr, organizationUuid, `Existing site ${i}`, location, street, i % 2 === 0 ? `EXISTING-${i}` : null, now, now);
      if (i % 5 === 0) {
        const tag = uuid7();
        insertTag.run(tag, organizationUuid, qr, 'Existing', String(i), `Existing ${i}`, now);
        tags.push({ tag, qr, location });
      }
    });
    // Searchable, as the app's writers leave them (server/qrcodes/search-index.ts).
    db.prepare(INDEX_INSERTED_SINCE_SQL).run(firstQr);

    const insertSchedule = db.prepare(
      `insert into appointment_schedules (uuid, organization_uuid, qr_code_uuid, qr_code_tag_uuid, service_uuid, service, location, appointment_date, start_date_time, end_date_time,
         start_utc, end_utc, duration, timezone_name, job_reference_id, created_on, updated_on)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 60, 'Australia/Sydney', ?, ?, ?)`,
    );
    const base = Date.UTC(2024, 0, 1);
    if (sizes.appointments > 0 && tags.length === 0) throw new Error('appointments need QR codes with tags');
    fill(db, sizes.appointments, (i) => {
      const on = tags[i % tags.length]!;
      const start = new Date(base + Math.floor(i / tags.length) * 3_600_000 + (i % 97) * 86_400_000);
      const utc = start.toISOString().replace(/\.\d{3}Z$/, 'Z');
      const end = new Date(start.getTime() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const local = utc.slice(0, 16).replace('T', ' ');
      insertSchedule.run(
        uuid7(),
        organizationUuid,
        on.qr,
        on.tag,
        service.uuid,
        service.name,
        on.location,
        utc.slice(0, 10),
        local,
        local,
        utc,
        end,
        i % 2 === 0 ? `EXISTING-JOB-${i}` : null,
        now,
        now,
      );
    });

    const insertTask = db.prepare(
      `insert into background_tasks (uuid, task_id, task_type, status, progress, created_by_uuid, metadata, organization_uuid, results, created_on, updated_on)
       values (?, ?, 'QR_IMPORT', 'COMPLETED', 100, ?, null, ?, '{"inserted":1,"excluded":0}', ?, ?)`,
    );
    fill(db, sizes.tasks, () => {
      const uuid = uuid7();
      insertTask.run(uuid, `task-${uuid}`, creator, organizationUuid, now, now);
    });

    const webhook = uuid7();
    db.prepare(
      `insert into webhooks (uuid, organization_uuid, url, events, is_active, secret, created_on, updated_on) values (?, ?, 'https://hooks.example.com/big', '["service_confirmation.check_in"]', 0, ?, ?, ?)`,
    ).run(webhook, organizationUuid, `whsec_${'0'.repeat(32)}`, now, now);
    const insertEvent = db.prepare(
      `insert into webhook_events (id, organization_uuid, type, created_at, envelope) values (?, ?, 'service_confirmation.check_in', ?, ?)`,
    );
    const insertDelivery = db.prepare(
      `insert into webhook_deliveries (delivery_id, event_id, webhook_uuid, organization_uuid, status, attempt_count, schedule_base, next_attempt_at, in_flight, created_on, updated_on)
       values (?, ?, ?, ?, 'delivered', 1, 0, null, 0, ?, ?)`,
    );
    fill(db, sizes.deliveries, (i) => {
      const event = `evt_${uuid7()}`;
      insertEvent.run(
        event,
        organizationUuid,
        now,
        JSON.stringify({
          id: event,
          type: 'service_confirmation.check_in',
          created_at: now,
          data: { uuid: uuid7(), status: 'CHECK_IN', n: i },
        }),
      );
      insertDelivery.run(uuid7(), event, webhook, organizationUuid, now, now);
    });
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** A migrated data dir (database and credentials.json of the demo organization), made by starting the real server once. */
export async function migratedDataDir(dir: string): Promise<{ dataDir: string; organizationUuid: string }> {
  fs.mkdirSync(dir, { recursive: true });
  const server = await startChildServer(dir);
  await server.stop();
  const db = new SQLite(databaseFileOf(dir));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { dataDir: dir, organizationUuid: server.organizationUuid };
}

/**
 * The big organization's data dir, made once and kept in bench/out (it takes a minute or more to
 * fill); named by its sizes and the migrations it was made with, so a schema change makes a new one.
 */
export async function bigOrgTemplate(
  sizes: BigOrgSizes = bigOrgSizes(),
): Promise<{ dataDir: string; organizationUuid: string; sizes: BigOrgSizes; populateSeconds: number | null }> {
  const schema = createHash('sha256')
    .update(
      Object.values(migrations)
        .map((m) => String(m.up))
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 8);
  const tag = `${sizes.qrCodes}-${sizes.appointments}-${sizes.tasks}-${sizes.deliveries}-${schema}`;
  const dir = path.join(OUT, `big-org-${tag}`);
  const ready = path.join(dir, 'ready.json');
  if (fs.existsSync(ready))
    return {
      ...(JSON.parse(fs.readFileSync(ready, 'utf8')) as { dataDir: string; organizationUuid: string }),
      sizes,
      populateSeconds: null,
    };
  fs.rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  const { organizationUuid } = await migratedDataDir(dir);
  populateOrganization(databaseFileOf(dir), organizationUuid, sizes);
  const populateSeconds = (performance.now() - started) / 1000;
  fs.writeFileSync(ready, JSON.stringify({ dataDir: dir, organizationUuid }));
  return { dataDir: dir, organizationUuid, sizes, populateSeconds };
}

/** Copies a data dir (its database must be checkpointed: the WAL is not copied). */
export function copyDataDir(from: string, to: string): string {
  fs.mkdirSync(to, { recursive: true });
  for (const name of fs.readdirSync(from)) {
    if (name.endsWith('-wal') || name.endsWith('-shm') || name === 'ready.json') continue;
    const source = path.join(from, name);
    if (fs.statSync(source).isFile()) fs.copyFileSync(source, path.join(to, name));
  }
  return to;
}

export const databaseFileOf = (dataDir: string) => path.join(dataDir, DATABASE_FILE);
