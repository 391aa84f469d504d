/**
 * Issue 38, attack 1, and the worst case of each way a draft changes (npm run bench -- attacks,
 * ATTACK_ONLY=8_drafts): the four requests that killed the server; a draft of ATTACK_DRAFT_ROWS
 * excluded rows (default 10,000, the import's default of kept excluded rows) whose data cell holds
 * 5,000 × "a", replaced with "b" (5,000 matches a row, the most matches a replace meets), then
 * with "bb" (past the text one change may add) and "bbb" (past the column); a 10,000-character
 * cell filled down over every row; a page of 1,000 rows; a page holding a row of 100 million
 * characters written by an older version; and drafts created until the organization's limit.
 * Each step's HTTP status, time and answer size; the caller watches memory, the data folder and
 * /api/health meanwhile.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../server/db/database.ts';
import { round, type ChildServer } from './support.ts';

const DRAFT_ROWS = Number(process.env.ATTACK_DRAFT_ROWS ?? 10_000);
const DATA_CHARS = 5000;

interface Step {
  http: number | 'no answer';
  ms: number;
  answer_kb: number;
  /** The server process's peak memory so far (VmHWM): the step that raised it shows. */
  server_peak_rss_mb?: number;
  message?: string;
  changed?: number;
}

/**
 * One request, timed; a request without answer is a result too. A connection the server closed
 * while the bench blocked its own process (writing the huge row) is tried once more on a new one.
 */
async function step(server: ChildServer, pathname: string, init: RequestInit = {}): Promise<Step & { body: unknown }> {
  const first = await stepOnce(server, pathname, init);
  return first.http === 'no answer' && /other side closed/.test(first.message ?? '') ? stepOnce(server, pathname, init) : first;
}

async function stepOnce(server: ChildServer, pathname: string, init: RequestInit): Promise<Step & { body: unknown }> {
  const started = performance.now();
  const json: Record<string, string> = typeof init.body === 'string' ? { 'content-type': 'application/json' } : {};
  try {
    const res = await fetch(`${server.url}${pathname}`, { ...init, headers: { authorization: server.auth, connection: 'close', ...json } });
    const text = await res.text();
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const error = body.error as { message?: string } | undefined;
    return {
      http: res.status,
      ms: round(performance.now() - started, 0),
      server_peak_rss_mb: server.peakRssMb(),
      answer_kb: round(text.length / 1024, 1),
      ...(error?.message ? { message: error.message.slice(0, 200) } : {}),
      ...(typeof body.changed === 'number' ? { changed: body.changed } : {}),
      body,
    };
  } catch (error) {
    const message = String((error as Error).cause ?? error);
    return { http: 'no answer', ms: round(performance.now() - started, 0), answer_kb: 0, message, body: {} };
  }
}

const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });
const shown = ({ body: _body, ...rest }: Step & { body: unknown }): Step => rest;

/** The four requests of the report: a 10,000-character cell, then a → 1,000 × a, a → 10 × a, a → b. */
async function fourRequestKill(server: ChildServer) {
  const created = await step(server, '/api/import-drafts', post({ kind: 'qrcodes', rows: [{ values: { data: 'a'.repeat(10_000) } }] }));
  const uuid = (created.body as { uuid: string }).uuid;
  const replace = (find: string, replace: string) =>
    step(server, `/api/import-drafts/uuid/${uuid}/replace`, post({ column: 'data', find, replace })).then(shown);
  const steps = [await replace('a', 'a'.repeat(1000)), await replace('a', 'a'.repeat(10)), await replace('a', 'b')];
  await step(server, `/api/import-drafts/uuid/${uuid}`, { method: 'DELETE' });
  return { create: shown(created), replaces: steps };
}

/** A draft of DRAFT_ROWS excluded rows (no location: each is excluded), each with DATA_CHARS × "a" in data. */
async function bigDraft(server: ChildServer): Promise<{ uuid: string; open_draft: Step }> {
  const line = `,Site,${'a'.repeat(DATA_CHARS)}\n`;
  const form = new FormData();
  form.set('organization_uuid', server.organizationUuid);
  form.set('file', new Blob([`location,name,data\n${line.repeat(DRAFT_ROWS)}`]), 'no-locations.csv');
  const accepted = (await step(server, '/api/qrcodes/bulk', { method: 'POST', body: form })).body as { background_task_uuid: string };
  for (;;) {
    const task = (await step(server, `/api/background-tasks/uuid/${accepted.background_task_uuid}`)).body as { status?: string };
    if (task.status === 'COMPLETED' || task.status === 'FAILED') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const draft = await step(server, '/api/import-drafts', post({ background_task_uuid: accepted.background_task_uuid }));
  return { uuid: (draft.body as { uuid: string }).uuid, open_draft: shown(draft) };
}

/** One row of the draft rewritten as an older version could leave it: a cell of 100 million characters. */
function plantHugeRow(server: ChildServer, uuid: string): void {
  const db = new Database(path.join(server.dataDir, DATABASE_FILE));
  try {
    db.pragma('busy_timeout = 10000');
    const huge = JSON.stringify({ name: 'Huge', data: 'a'.repeat(100_000_000) });
    db.prepare('update import_draft_rows set cells = ?, search_text = ? where draft_uuid = ? and row_id = 2').run(huge, huge, uuid);
  } finally {
    db.close();
  }
}

async function draftsUntilRefused(server: ChildServer) {
  let created = 0;
  for (let i = 0; i < 1000; i++) {
    const answer = await step(server, '/api/import-drafts', post({ kind: 'qrcodes', rows: [{ values: { name: `Draft ${i}` } }] }));
    if (answer.http !== 201) return { created, refused: shown(answer) };
    created++;
  }
  return { created, refused: null };
}

export async function draftAttacks(server: ChildServer) {
  const kill = await fourRequestKill(server);
  const { uuid, open_draft } = await bigDraft(server);
  const at = `/api/import-drafts/uuid/${uuid}`;
  const replaceMax = shown(await step(server, `${at}/replace`, post({ column: 'data', find: 'a', replace: 'b' })));
  const replacePastChange = shown(await step(server, `${at}/replace`, post({ column: 'data', find: 'b', replace: 'bb' })));
  const replacePastColumn = shown(await step(server, `${at}/replace`, post({ column: 'data', find: 'b', replace: 'bbb' })));
  await step(server, `${at}/rows/1`, { method: 'PATCH', body: JSON.stringify({ column: 'data', value: 'c'.repeat(10_000) }) });
  const fill = shown(await step(server, `${at}/fill-down`, post({ column: 'data', from_row_id: 1, to_row_id: DRAFT_ROWS })));
  const page = shown(await step(server, `${at}/rows?limit=1000`));
  plantHugeRow(server, uuid);
  const hugePage = shown(await step(server, `${at}/rows?limit=1000`));
  const hugeSearch = shown(await step(server, `${at}/rows?limit=1000&search=aaaa`));
  const limit = await draftsUntilRefused(server);
  const databaseMb = round(fs.statSync(path.join(server.dataDir, DATABASE_FILE)).size / (1024 * 1024), 1);
  return {
    four_request_kill: kill,
    draft_rows: DRAFT_ROWS,
    open_draft_of_the_excluded_rows: open_draft,
    replace_5000_matches_a_row: replaceMax,
    replace_past_change_limit: replacePastChange,
    replace_past_column: replacePastColumn,
    fill_down_10000_characters: fill,
    page_of_1000_rows: page,
    page_with_a_100m_character_row: hugePage,
    search_with_a_100m_character_row: hugeSearch,
    drafts_per_organization: limit,
    database_mb_after: databaseMb,
  };
}
