import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Db } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { param, prepare, prepareRepeated } from '../../server/db/prepared.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const freshDir = suiteTempDirs();

/** An organization's insert with every value a param: uuid, name, zone (its time zone) and now. */
const organizationInsert = (db: Db) =>
  db.kysely.insertInto('organizations').values({
    uuid: param('uuid'),
    name: param('name'),
    default_timezone: param('zone'),
    created_on: param('now'),
  });

describe('prepare(): statements compiled once, with fixed values written into their SQL', () => {
  let db: Db;
  before(async () => {
    db = await openDatabase(freshDir());
  });
  after(() => db.close());

  const insertOrganization = (fixed: Record<string, string | number | null>) =>
    prepare<'uuid' | 'name'>(db.sqlite, organizationInsert(db), fixed);
  const readOrganization = (uuid: string) =>
    db.sqlite.prepare('select name, default_timezone, created_on from organizations where uuid = ?').get(uuid);

  it('stores a fixed text exactly as bound text would be, quotes included', () => {
    const zone = "Australia/O'Quote";
    const now = "2026-11-26T00:00:00.000Z'; drop table organizations; --";
    insertOrganization({ zone, now }).run({ uuid: 'fixed-1', name: 'Fixed' });
    prepare<'uuid' | 'name' | 'zone' | 'now'>(db.sqlite, organizationInsert(db)).run({ uuid: 'bound-1', name: 'Bound', zone, now });
    assert.deepEqual(readOrganization('fixed-1'), { name: 'Fixed', default_timezone: zone, created_on: now });
    assert.deepEqual(readOrganization('bound-1'), { name: 'Bound', default_timezone: zone, created_on: now });
  });

  it('binds the other params in their order around the fixed ones, run after run', () => {
    const insert = insertOrganization({ zone: 'UTC', now: 'then' });
    insert.run({ uuid: 'order-1', name: 'First' });
    insert.run({ uuid: 'order-2', name: 'Second' });
    const find = prepare<'name'>(
      db.sqlite,
      db.kysely.selectFrom('organizations').select('uuid').where('name', '=', param('name')).where('default_timezone', '=', param('zone')),
      { zone: 'UTC' },
    );
    assert.deepEqual(find.get({ name: 'Second' }), { uuid: 'order-2' });
    assert.equal(find.get({ name: 'Third' }), undefined);
  });

  it('refuses a fixed text with NUL, which a literal would cut short', () => {
    assert.throws(() => insertOrganization({ zone: 'UTC', now: 'a\u0000b' }), /NUL/);
  });
});

describe('prepareRepeated(): repeated values written into variants of a statement', () => {
  let db: Db;
  before(async () => {
    db = await openDatabase(freshDir());
  });
  after(() => db.close());

  type Param = 'uuid' | 'name' | 'zone' | 'now';
  const stored = (prefix: string) =>
    db.sqlite
      .prepare(
        "select substr(uuid, instr(uuid, ':') + 1) as n, name, default_timezone, typeof(default_timezone) as t, created_on from organizations where uuid like ? order by uuid",
      )
      .all(`${prefix}:%`);

  it('stores exactly what the bound statement stores, whatever the values', () => {
    const zones = ["Australia/O'Quote", 'UTC', 'UTC', 'a?b', 'x'.repeat(101), 'a\u0000b', '', 'UTC', "it's ?"];
    const names = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    const repeated = prepareRepeated<Param>(db.sqlite, organizationInsert(db), {}, { values: ['zone'], nulls: ['now'], maxVariants: 3 });
    const bound = prepare<Param>(db.sqlite, organizationInsert(db));
    zones.forEach((zone, i) => {
      const args = { name: names[i], zone, now: i % 3 === 0 ? 'a time' : 'another' };
      repeated.run({ uuid: `variant:${i}`, ...args });
      bound.run({ uuid: `bound:${i}`, ...args });
    });
    const variantRows = stored('variant');
    assert.equal(variantRows.length, zones.length);
    assert.deepEqual(variantRows, stored('bound'));
    assert.equal((variantRows[5] as { default_timezone: string }).default_timezone, 'a\u0000b');
  });

  it('writes in a null of a "nulls" param and binds a value given', () => {
    const statement = prepareRepeated<'uuid' | 'zone'>(
      db.sqlite,
      db.kysely.selectFrom('organizations').select('name').where('uuid', '=', param('uuid')).where('name', 'is not', param('zone')),
      {},
      { nulls: ['zone'] },
    );
    db.sqlite
      .prepare("insert into organizations (uuid, name, default_timezone, created_on) values ('nulls:1', 'Named', 'UTC', 'now')")
      .run();
    assert.deepEqual(statement.get({ uuid: 'nulls:1', zone: null }), { name: 'Named' });
    assert.equal(statement.get({ uuid: 'nulls:1', zone: 'Named' }), undefined);
    assert.deepEqual(statement.all({ uuid: 'nulls:1', zone: 'Other' }), [{ name: 'Named' }]);
  });
});
