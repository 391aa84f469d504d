import fs from 'node:fs';
import { openConnection } from '../server/db/database.ts';
import { createOrganization } from '../server/orgs/organizations.ts';
import { bearer } from '../test/support/server.ts';
import { repeated, SHEET_HEAD, text, WORKBOOK_PARTS, writeStreamedZip } from './attack-files.ts';
import { percentile, round, type ChildServer } from './support.ts';

/** The "1 MB": just under the 1 MiB from which a workbook part's compression ratio is judged. */
const MB = 1_000_000;
/** A preview unanswered after this long counts as held up (the bench goes on). */
const GIVE_UP_MS = 60_000;
/** The bystander's previews at rest, before the attacks. */
const AT_REST_PREVIEWS = 10;

/** Issue 38 item 2: a 2.8 KB workbook whose <workbookPr> holds one 1 MB word (its attributes were read by a quadratic pattern). */
export function writeSlowWorkbook(file: string): number {
  return writeStreamedZip(
    file,
    WORKBOOK_PARTS(false)
      .map((entry) =>
        entry.name === 'xl/workbook.xml'
          ? {
              name: entry.name,
              pieces: function* () {
                yield Buffer.from(
                  '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr ',
                );
                yield* repeated('a', MB);
                yield Buffer.from('/><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>');
              },
            }
          : entry,
      )
      .concat({ name: 'xl/worksheets/sheet1.xml', pieces: text(`${SHEET_HEAD}</sheetData></worksheet>`) }),
  );
}

/** Issue 38 item 5: a 13 KB workbook whose one 1 MB shared string is used by 480 cells (the reader made a copy per cell). */
export function writeSharedStringHeapWorkbook(file: string): number {
  const cells = Array.from({ length: 480 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="s"><v>0</v></c></row>`).join('');
  return writeStreamedZip(file, [
    ...WORKBOOK_PARTS(true),
    {
      name: 'xl/sharedStrings.xml',
      pieces: function* () {
        yield Buffer.from(
          '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="480" uniqueCount="1"><si><t>',
        );
        yield* repeated('y', MB);
        yield Buffer.from('</t></si></sst>');
      },
    },
    { name: 'xl/worksheets/sheet1.xml', pieces: text(`${SHEET_HEAD}${cells}</sheetData></worksheet>`) },
  ]);
}

interface Org {
  auth: string;
  organizationUuid: string;
}

interface Answer {
  status: number | 'no answer';
  ms: number;
  message: string | null;
}

const BYSTANDER_CSV =
  'name,location\nDepot,"1 Collins Street, Melbourne VIC 3000"\nOffice,"2 High Street, Carlton VIC 3053"\nStore,"3 George Street, Sydney NSW 2000"\n';

const PREVIEW = '/api/imports/preview';
const IMPORT = '/api/qrcodes/bulk';

/** A preview (or, with IMPORT, a background import) of `file`, timed to its answer. */
async function preview(server: ChildServer, org: Org, file: Blob, name: string, endpoint = PREVIEW): Promise<Answer> {
  const form = new FormData();
  if (endpoint === PREVIEW) form.set('kind', 'qrcodes');
  form.set('organization_uuid', org.organizationUuid);
  form.set('file', file, name);
  const started = performance.now();
  try {
    const res = await fetch(`${server.url}${endpoint}`, {
      method: 'POST',
      headers: { authorization: org.auth },
      body: form,
      signal: AbortSignal.timeout(GIVE_UP_MS),
    });
    const body = (await res.json()) as { error?: { message?: string } };
    return { status: res.status, ms: performance.now() - started, message: body.error?.message ?? null };
  } catch {
    return { status: 'no answer', ms: performance.now() - started, message: null };
  }
}

function latencies(answers: Answer[]) {
  const statuses: Record<string, number> = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  const ms = answers.map((a) => a.ms);
  return { count: answers.length, statuses, p50_ms: round(percentile(ms, 50)), max_ms: round(Math.max(...ms, 0)) };
}

/**
 * Issue 38 items 2 and 5 as another organization sees them: while the attacker's previews read an
 * attack file (one at a time, then four at once; the second file also as an import), the bystander previews a three-row CSV back to
 * back until every attack has been answered. Gives the attacker's answers (status, seconds,
 * message) and the bystander's preview latency then and at rest.
 */
export async function readerFairness(server: ChildServer, files: { slow: string; heap: string }) {
  const db = openConnection(server.dataDir);
  let bystander: Org;
  try {
    const credentials = await createOrganization(db.kysely, { name: 'Bystander' });
    bystander = { auth: bearer(credentials), organizationUuid: credentials.organization_uuid };
  } finally {
    await db.close();
  }
  const attacker: Org = { auth: server.auth, organizationUuid: server.organizationUuid };
  const csv = new Blob([BYSTANDER_CSV]);
  const atRest: Answer[] = [];
  for (let i = 0; i < AT_REST_PREVIEWS; i++) atRest.push(await preview(server, bystander, csv, 'sites.csv'));

  const during = async (attacks: Promise<Answer>[]) => {
    let over = false;
    const answers = Promise.all(attacks).finally(() => {
      over = true;
    });
    const seen: Answer[] = [];
    while (!over || seen.length === 0) seen.push(await preview(server, bystander, csv, 'sites.csv'));
    const attacked = await answers;
    return {
      attacker: attacked.map((a) => ({ status: a.status, seconds: round(a.ms / 1000, 1), message: a.message?.slice(0, 240) ?? null })),
      bystander_previews: latencies(seen),
    };
  };
  const slow = await fs.openAsBlob(files.slow);
  const heap = await fs.openAsBlob(files.heap);
  return {
    bystander_previews_at_rest: latencies(atRest),
    slow_workbook: await during([preview(server, attacker, slow, 'slow.xlsx')]),
    slow_workbook_four_at_once: await during([0, 1, 2, 3].map(() => preview(server, attacker, slow, 'slow.xlsx'))),
    heap_workbook: await during([preview(server, attacker, heap, 'heap.xlsx')]),
    heap_workbook_four_at_once: await during([0, 1, 2, 3].map(() => preview(server, attacker, heap, 'heap.xlsx'))),
    heap_workbook_imported: await during([preview(server, attacker, heap, 'heap.xlsx', IMPORT)]),
  };
}
