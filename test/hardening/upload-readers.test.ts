import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { HOLD_FIRST_READER_ENV, HOSTILE_GEOCODER_MODULE } from '../support/hostile-geocoder.ts';
import { fileUpload, waitForTask } from '../support/imports.ts';
import { bearer, startTestServer, type TestServer } from '../support/server.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const DEADLINE_SECONDS = 15;
/** Longer than any answer here may take: a request still unanswered then has hung. */
const HUNG_MS = 120_000;

interface Org {
  auth: string;
  organizationUuid: string;
}

interface Answer {
  status: number;
  body: { rows?: { problems: string[] }[]; error?: { code: string; message: string } };
  retryAfter: string | null;
  /** Which of the test's requests this answer was: 1 for the first answered, and so on. */
  order: number;
}

/** A QR code CSV of two rows, the first on `street` ("Exhausting Street" exhausts the reader's memory; others are located). */
const sitesOn = (street: string) => `name,location\nDepot,"1 ${street}, Melbourne VIC 3000"\nOffice,"2 High Street, Carlton VIC 3053"\n`;

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < HUNG_MS / 20 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(done(), what);
}

describe("upload readers: one organization's reads cannot hold up or fail another organization's", () => {
  const tempDir = suiteTempDirs();
  let server: TestServer | undefined;
  let answered = 0;

  /**
   * A server whose first reader to load the geocoder is stuck until `hold` exists, reads stopped
   * after `deadlineSeconds`, and an attacker and a bystander organization.
   */
  const start = async (hold: string, deadlineSeconds: number) => {
    process.env[HOLD_FIRST_READER_ENV] = hold;
    answered = 0;
    const running = await startTestServer({
      imports: { geocoderModule: HOSTILE_GEOCODER_MODULE, readDeadlineMs: deadlineSeconds * 1000 },
    });
    server = running;
    const org = async (name: string): Promise<Org> => {
      const credentials = await createOrganization(running.ctx.db.kysely, { name });
      return { auth: bearer(credentials), organizationUuid: credentials.organization_uuid };
    };
    return { server: running, attacker: await org('Attacker'), bystander: await org('Bystander') };
  };
  afterEach(async () => {
    delete process.env[HOLD_FIRST_READER_ENV];
    await server?.stop();
    server = undefined;
  });

  const preview = async (running: TestServer, org: Org, csv: string): Promise<Answer> => {
    const res = await running.request('/api/imports/preview', {
      ...fileUpload(csv, 'sites.csv', { kind: 'qrcodes', organization_uuid: org.organizationUuid }),
      headers: { authorization: org.auth },
      signal: AbortSignal.timeout(HUNG_MS),
    });
    return {
      status: res.status,
      body: (await res.json()) as Answer['body'],
      retryAfter: res.headers.get('retry-after'),
      order: ++answered,
    };
  };

  it("a read that never ends is stopped at the deadline, and meanwhile another organization's preview answers", async () => {
    const marker = path.join(tempDir(), 'endless');
    fs.writeFileSync(marker, ''); // no reader is held at its start here
    const { server, attacker, bystander } = await start(marker, DEADLINE_SECONDS);
    const stuck = preview(server, attacker, sitesOn('Endless Street'));
    await until("the attacker's read is stuck in its file", () => fs.existsSync(`${marker}.endless`));
    const queuedBehind = preview(server, attacker, sitesOn('Collins Street'));

    // The bystander's preview goes to a reader of its own: it does not wait for the attacker's reads. The attacker's
    // read is stuck inside its trial write, which holds the database's write lock until its process is ended, so the
    // bystander's rows are ones the row checks exclude before any write (no location): its preview needs no lock.
    const seen = await preview(server, bystander, 'name,location\nDepot,\nOffice,\n');
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    assert.deepEqual(
      seen.body.rows?.map((row) => row.problems.length),
      [1, 1],
    );
    assert.match(seen.body.rows?.[0]?.problems[0] ?? '', /location/);
    assert.equal(seen.order, 1, "the bystander's preview answered before either of the attacker's");

    const stopped = await stuck;
    assert.equal(stopped.status, 400);
    assert.match(
      stopped.body.error?.message ?? '',
      new RegExp(
        `^Reading the file's first rows took longer than ${DEADLINE_SECONDS} s, the deadline for reading an upload \\(serve --upload-read-seconds\\), so it was stopped\\.`,
      ),
    );
    // The attacker's second read waits behind its first (one read per organization at a time): refused at its own deadline
    // (503) if that comes first, else begun when the first was stopped, with what was left of its deadline.
    const second = await queuedBehind;
    assert.ok([200, 400, 503].includes(second.status), JSON.stringify(second));
    if (second.status === 200) assert.ok(second.order > stopped.order, "the attacker's second read was read only after its first");
    else assert.match(second.body.error?.message ?? '', /the deadline for reading an upload \(serve --upload-read-seconds\)/);
    if (second.status === 503) {
      assert.match(
        second.body.error?.message ?? '',
        /could not start within 15 s.*: this organization's earlier uploads were being read first/,
      );
      assert.equal(second.retryAfter, String(DEADLINE_SECONDS));
    }

    const again = await preview(server, attacker, sitesOn('Collins Street'));
    assert.equal(again.status, 200, `the attacker's next read gets a fresh reader: ${JSON.stringify(again.body)}`);
  });

  it("a reader that runs out of memory fails only its own read: another organization's preview and import in flight succeed", async () => {
    const hold = path.join(tempDir(), 'gate');
    // No deadline in the way: the bystander's preview is held for as long as the attacker's reader takes to run out of memory.
    const { server, attacker, bystander } = await start(hold, HUNG_MS / 1000);
    // The bystander's preview is held in its reader; its import's header read waits behind it (one read per organization at a time).
    const held = preview(server, bystander, sitesOn('Collins Street'));
    await until("the bystander's preview is being read", () => fs.existsSync(`${hold}.held`));
    const importing = server.request('/api/qrcodes/bulk', {
      ...fileUpload(sitesOn('Collins Street'), 'sites.csv', { organization_uuid: bystander.organizationUuid }),
      headers: { authorization: bystander.auth },
      signal: AbortSignal.timeout(HUNG_MS),
    });

    const exhausted = await preview(server, attacker, sitesOn('Exhausting Street'));
    assert.equal(exhausted.status, 400);
    assert.match(
      exhausted.body.error?.message ?? '',
      /^The worker that reads uploads ran out of memory: its heap is limited to 192 MB \(serve --import-worker-memory-mb\)\./,
    );

    fs.writeFileSync(hold, '');
    const seen = await held;
    assert.equal(seen.status, 200, `the bystander's preview was not failed by the attacker's crash: ${JSON.stringify(seen.body)}`);
    assert.deepEqual(
      seen.body.rows?.map((row) => row.problems),
      [[], []],
    );
    const accepted = await importing;
    assert.equal(accepted.status, 202, await accepted.clone().text());
    const { background_task_uuid: uuid } = (await accepted.json()) as { background_task_uuid: string };
    const task = await waitForTask(server, uuid, 1200, bystander.auth);
    assert.equal(task.status, 'COMPLETED', task.error_message ?? '');
    assert.equal(task.results?.inserted, 2, JSON.stringify(task.results));
  });
});
