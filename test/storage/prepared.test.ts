import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Db } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { param, prepare } from '../../server/db/prepared.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const freshDir = suiteTempDirs();

describe('prepare(): statements compiled once, with fixed values written into their SQL', () => {
  let db: Db;
  before(async () => {
    db = await openDatabase(freshDir());
  });
  after(() => db.close());

  const organizationInsert = () =>
    db.kysely.insertInto('organizations').values({
      uuid: param('uuid'),
      name: param('name'),
      default_timezone: param('zone'),
      created_on: param('now'),
    });
  const insertOrganization = (fixed: Record<string, string | number | null>) =>
    prepare<'uuid' | 'name'>(db.sqlite, organizationInsert(), fixed);
  const readOrganization = (uuid: string) =>
    db.sqlite.prepare('select name, default_timezone, created_on from organizations where uuid = ?').get(uuid);

  it('stores a fixed text exactly as bound text would be, quotes included', () => {
    const zone = "Australia/O'Quote";
    const now = "2026-11-26T00:00:00.000Z'; drop table organizations; --";
    insertOrganization({ zone, now }).run({ uuid: 'fixed-1', name: 'Fixed' });
    prepare<'uuid' | 'name' | 'zone' | 'now'>(db.sqlite, organizationInsert()).run({ uuid: 'bound-1', name: 'Bound', zone, now });
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
