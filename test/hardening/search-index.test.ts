import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { databasePath } from '../../server/db/database.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { SHORT_SEARCH_CAP } from '../../server/db/trigram-search.ts';
import { INDEX_INSERTED_SINCE_SQL, INDEX_QR_CODE_SQL } from '../../server/qrcodes/search-index.ts';
import { addressCsv, fileUpload, startImportTestServer, startCsvImport, waitForTask } from '../support/imports.ts';
import { bearer, jsonBody, type TestServer } from '../support/server.ts';
import { hookPrepare } from '../support/sql-collector.ts';

/** Names, labels and references that make a search index and its query syntax trip. */
const TRICKY = [
  { name: 'Café Émile', label: 'ÉTAGE 2', external_reference_id: 'ACC-1' },
  { name: 'cafe emile', label: 'étage 3', external_reference_id: 'acc-2' },
  { name: "O'Brien's Depot", label: 'Say "hello"', external_reference_id: 'Q"1' },
  { name: '50% off', label: '100%_sure', external_reference_id: 'P_1' },
  { name: 'A_B_C', label: 'under_score', external_reference_id: 'U%2' },
  { name: 'NEAR AND FAR', label: 'x OR y NOT z', external_reference_id: 'NEAR(a b)' },
  { name: 'star*gazer', label: '^caret -minus +plus', external_reference_id: 'col:on' },
  { name: 'Back\\slash', label: 'tab\there', external_reference_id: 'B\\1' },
  { name: 'Zürich Straße', label: 'ZÜRICH STRASSE', external_reference_id: 'Z-1' },
  { name: '東京 タワー', label: '🙂 smile', external_reference_id: 'JP-1' },
  { name: 'x', label: 'ab', external_reference_id: 'xy' },
];

/** What the list did with a plain LIKE: the four fields, ASCII case folded, the organization's live rows, newest first. */
const ORACLE_SQL = `select uuid from qrcodes where organization_uuid = ? and deleted_on is null
  and (name like ? escape '\\' or location like ? escape '\\' or label like ? escape '\\' or external_reference_id like ? escape '\\')
  order by rowid desc`;

const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const TERMS = [
  'café',
  'CAFÉ',
  'Café Ém',
  'émile',
  'Émile',
  'cafe',
  'étage',
  'ÉTAGE',
  "o'brien",
  "'s d",
  '"hello"',
  'Q"1',
  '"',
  '50%',
  '%',
  '%_',
  '_',
  'a_b',
  'P_1',
  'U%2',
  'AND',
  'and far',
  'or y not',
  'NEAR(a',
  'NEAR',
  'star*',
  '*',
  '^caret',
  '-minus +plus',
  'col:on',
  ':',
  'back\\sl',
  '\\',
  'zürich',
  'ZÜRICH',
  'straße',
  'STRASSE',
  '東京',
  '京 タ',
  '🙂',
  '🙂 s',
  'x',
  'xy',
  'ab',
  'a',
  'st',
  'high street',
  'HIGH STREET, MEL',
  'site 1',
  'SEARCH-1',
  'search-12',
  'Renamed',
  'Deleted site',
  'nothing like this',
];

interface Page {
  items: { uuid: string }[];
  total: number;
  pages: number;
}

describe('QR code search through an index: the meaning of the old LIKE scan, kept through every write', () => {
  let server: TestServer;
  let reader: SQLite.Database;
  let otherAuth: string;
  let otherOrg: string;
  const prepared = new Set<string>();
  let unhook = () => {};

  const search = async (term: string, extra = '', auth = server.auth, org = server.organizationUuid) => {
    const res = await server.request(
      `/api/qrcodes?organization_uuid=${org}&search=${encodeURIComponent(term)}${extra.includes('per_page') ? '' : '&per_page=100'}${extra}`,
      {
        headers: { authorization: auth },
      },
    );
    assert.equal(res.status, 200, `search ${JSON.stringify(term)}: ${await res.clone().text()}`);
    return (await res.json()) as Page;
  };
  const oracle = (term: string, org = server.organizationUuid) => {
    const pattern = likePattern(term);
    return reader.prepare<unknown[], string>(ORACLE_SQL).pluck().all(org, pattern, pattern, pattern, pattern) as unknown as string[];
  };
  const assertSameAsLike = async (term: string) => {
    const expected = oracle(term);
    const page = await search(term);
    assert.deepEqual(
      { total: page.total, uuids: page.items.map((i) => i.uuid) },
      { total: expected.length, uuids: expected.slice(0, 100) },
      `search ${JSON.stringify(term)}`,
    );
  };

  before(async () => {
    unhook = hookPrepare((sql) => prepared.add(sql));
    server = await startImportTestServer();
    reader = new SQLite(databasePath(server.dataDir), { readonly: true });
    const other = await createOrganization(server.ctx.db.kysely, { name: 'Other organization' });
    otherAuth = bearer(other);
    otherOrg = other.organization_uuid;
    for (const [i, fields] of TRICKY.entries()) {
      const res = await server.request(
        '/api/qrcodes',
        jsonBody({ organization_uuid: server.organizationUuid, location: `${i + 1} High Street, Melbourne VIC 3000`, ...fields }),
      );
      assert.equal(res.status, 201, await res.text());
    }
    const foreign = await server.request('/api/qrcodes', {
      ...jsonBody({ organization_uuid: otherOrg, name: 'Café Émile elsewhere', location: '1 High Street, Melbourne VIC 3000' }),
      headers: { 'content-type': 'application/json', authorization: otherAuth },
    });
    assert.equal(foreign.status, 201, await foreign.text());
  });
  after(async () => {
    unhook();
    reader.close();
    await server.stop();
  });

  it('finds what LIKE found for accents, case, quotes, %, _, query syntax and one or two characters', async () => {
    for (const term of TERMS) await assertSameAsLike(term);
  });

  it('keeps the index in step with an import through the worker, an update, a delete and a restore', async () => {
    const task = await waitForTask(server, await startCsvImport(server, addressCsv(120, 'SEARCH'), 'sites.csv'));
    assert.equal(task.status, 'COMPLETED', JSON.stringify(task));
    const found = await search('SEARCH-17');
    assert.equal(found.total, 1);
    const uuid = found.items[0]?.uuid ?? '';

    const renamed = await server.request(
      `/api/qrcodes/uuid/${uuid}`,
      jsonBody({ name: 'Renamed depot', label: 'Deleted site soon' }, 'PATCH'),
    );
    assert.equal(renamed.status, 200, await renamed.text());
    assert.equal((await search('renamed depot')).total, 1);
    assert.equal((await search('Site 17,')).total, 0, 'the old name is gone from the index');

    const doomed = (await search('SEARCH-42')).items[0]?.uuid ?? '';
    assert.equal((await server.request(`/api/qrcodes/uuid/${doomed}`, { method: 'DELETE' })).status, 204);
    assert.equal((await search('SEARCH-42')).total, 0);

    // The same import again restores the deleted one and finds the renamed one by its reference.
    const again = await waitForTask(server, await startCsvImport(server, addressCsv(120, 'SEARCH'), 'sites.csv'));
    assert.equal(again.status, 'COMPLETED', JSON.stringify(again));
    assert.equal((await search('SEARCH-42')).total, 1, 'the restored QR code is found again');

    for (const term of TERMS) await assertSameAsLike(term);
  });

  it('finds the later name of a site a file names twice (one batch inserts it, then changes it)', async () => {
    const csv = [
      'name,location,qr_code_external_reference_id,tag_name,tag_number',
      'Qzxvj dépôt first,"9 High Street, Melbourne VIC 3000",TWICE-1,Dock,1',
      'Qzxvj dépôt second,"9 High Street, Melbourne VIC 3000",TWICE-1,Bay,1',
    ].join('\n');
    for (const processing_mode of ['sync', 'background']) {
      const res = await server.request(
        '/api/qrcodes/bulk',
        fileUpload(
          `${csv.replaceAll('TWICE-1', `TWICE-${processing_mode}`).replace('Bay,1', `Bay,${processing_mode}`).replace('Dock,1', `Dock,${processing_mode}`)}\n`,
          'twice.csv',
          {
            organization_uuid: server.organizationUuid,
            processing_mode,
          },
        ),
      );
      if (processing_mode === 'sync') assert.equal(res.status, 200, await res.clone().text());
      else
        assert.equal(
          (await waitForTask(server, ((await res.json()) as { background_task_uuid: string }).background_task_uuid)).status,
          'COMPLETED',
        );
    }
    assert.equal((await search('qzxvj dépôt second')).total, 2);
    assert.equal((await search('qzxvj dépôt first')).total, 0, 'the first name is gone from the index');
    const checker = new SQLite(databasePath(server.dataDir));
    try {
      checker.exec("insert into qrcode_search (qrcode_search) values ('integrity-check')");
    } finally {
      checker.close();
    }
  });

  it('pages a search and filters it by type and reference like the list', async () => {
    const all = oracle('high street');
    const second = await search('high street', '&page=2&per_page=7');
    assert.equal(second.total, all.length);
    assert.equal(second.pages, Math.ceil(all.length / 7));
    assert.deepEqual(
      second.items.map((i) => i.uuid),
      all.slice(7, 14),
    );
    const last = await search('high street', `&page=${second.pages}&per_page=7`);
    assert.deepEqual(
      last.items.map((i) => i.uuid),
      all.slice((second.pages - 1) * 7),
    );
    assert.equal((await search('high street', '&type=EVENT')).total, 0);
    const byReference = await search('high street', '&external_reference_id=SEARCH-3');
    assert.equal(byReference.total, 1);
    const fromImport = await server.request(
      '/api/qrcodes/bulk?processing_mode=sync',
      fileUpload(addressCsv(3, 'SYNC'), 's.csv', { organization_uuid: server.organizationUuid }),
    );
    assert.equal(fromImport.status, 200, await fromImport.text());
    assert.equal((await search('SYNC-')).total, 3);
  });

  it('never shows another organization its QR codes', async () => {
    const mine = await search('Émile');
    assert.ok(mine.total > 0);
    const theirs = await search('Émile', '', otherAuth, otherOrg);
    assert.equal(theirs.total, 1);
    assert.deepEqual(
      theirs.items.map((i) => i.uuid),
      oracle('Émile', otherOrg),
    );
  });

  it('answers a search of three or more characters from the index, not from the organization rows', async () => {
    await search('a term for the plan');
    const searches = [...prepared]
      .filter((sql) => sql !== ORACLE_SQL && sql.includes('qrcode_search'))
      .filter((sql) => /\bqrcodes\b/.test(sql) && /\blike\b|\bmatch\b/i.test(sql));
    assert.ok(searches.length > 0, 'the search prepared its statements');
    for (const sql of searches) {
      const plan = (
        reader.prepare(`explain query plan ${sql}`).all(...Array<null>(countParameters(sql)).fill(null)) as { detail: string }[]
      ).map((row) => row.detail);
      assert.ok(
        plan.some((line) => /VIRTUAL TABLE INDEX \d+:M/.test(line)),
        `the search reads the full-text index: ${plan.join(' | ')}\n${sql}`,
      );
      assert.ok(!plan.some((line) => /^SEARCH qrcodes USING (COVERING )?INDEX qrcodes_by_organization/.test(line)), plan.join(' | '));
    }
  });

  it(`looks for one or two characters among an organization's newest ${SHORT_SEARCH_CAP} QR codes only`, async () => {
    const writer = new SQLite(databasePath(server.dataDir));
    try {
      const insertRow = writer.prepare(
        `insert into qrcodes (uuid, organization_uuid, name, location, created_on, updated_on) values (?, ?, ?, 'Somewhere', '2026-01-01', '2026-01-01')`,
      );
      const index = writer.prepare(INDEX_QR_CODE_SQL);
      const insert = (uuid: string, name: string) => {
        insertRow.run(uuid, otherOrg, name);
        index.run(uuid);
      };
      writer.transaction(() => {
        insert('old-qj', 'qjx oldest');
        for (let i = 0; i < SHORT_SEARCH_CAP; i++) insert(`filler-${i}`, i === 0 ? 'qjx newer' : `filler ${i}`);
      })();
    } finally {
      writer.close();
    }
    const short = await search('qj', '', otherAuth, otherOrg);
    assert.deepEqual(
      short.items.map((i) => i.uuid),
      ['filler-0'],
      'the oldest match is past the newest QR codes a short search looks at',
    );
    const long = await search('qjx', '', otherAuth, otherOrg);
    assert.equal(long.total, 2, 'three characters search every QR code');
  });

  it('gives the total of LIKE for a term that a hundred thousand QR codes hold', async () => {
    const writer = new SQLite(databasePath(server.dataDir));
    try {
      const insert = writer.prepare(
        `insert into qrcodes (uuid, organization_uuid, name, location, created_on, updated_on) values (?, ?, ?, 'Bulk Road', '2026-01-01', '2026-01-01')`,
      );
      const first = writer.prepare('select coalesce(max(rowid), 0) + 1 from qrcodes').pluck().get() as number;
      writer.transaction(() => {
        for (let i = 0; i < 110_000; i++) insert.run(`bulk-${i}`, i % 3 === 0 ? server.organizationUuid : otherOrg, `Bulk ${i}`);
        writer.prepare(INDEX_INSERTED_SINCE_SQL).run(first);
      })();
    } finally {
      writer.close();
    }
    // The write above held this process's thread for seconds, past the server's keep-alive time: let
    // fetch see the pooled connections the server closed meanwhile before it picks one (ECONNRESET).
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const term of ['bulk', 'Bulk 1', 'road']) {
      const expected = oracle(term, otherOrg);
      const page = await search(term, '', otherAuth, otherOrg);
      assert.deepEqual(
        { total: page.total, uuids: page.items.map((i) => i.uuid) },
        { total: expected.length, uuids: expected.slice(0, 100) },
        term,
      );
    }
  });
});

/** How many ? a statement binds (the search's statements have no ? inside string literals). */
function countParameters(sql: string): number {
  return (sql.match(/\?/g) ?? []).length;
}
