/**
 * Docs that run: every shell example of the manual (README.md, docs/*.md, docs/journeys/*.md) is
 * run with bash against one real server with a fresh data folder, as a reader would paste it, and
 * fails when it breaks or prints something else than its page shows. The convention is in
 * test/support/doc-blocks.ts and docs/development.md ("Docs that run").
 *
 * The reader's setup is the test's: the working folder holds the data folder `.qr-sandbox` of the
 * running server (so `./.qr-sandbox/credentials.json` and commands without `--data-dir` find it),
 * `node_modules/.bin` with the project's `qr-sandbox` (what `npx qr-sandbox` finds after `npm ci`;
 * `qr-sandbox` itself is on the PATH, as after `npm link`) and the repository's `test/fixtures`,
 * with the project's Node 22 first on the PATH. The pages' `127.0.0.1:8787` is read as the server's address, and
 * `127.0.0.1:3000` (or `localhost:3000`), "your app", as a small app of the test that answers 202.
 * Each page starts from the organization as the first start makes it (POST /api/reset, the demo
 * services, no snapshots, default settings) and an empty working folder (but for the repository's
 * test/fixtures, which a page may name); its blocks share one shell's variables.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { seedDemoServices } from '../../server/services/demo.ts';
import { pageExamples, type DocUnit, type PageExamples } from '../support/doc-blocks.ts';
import { matchesPage, normalise } from '../support/doc-output.ts';
import { PageShell } from '../support/doc-runner.ts';
import { REPO_ROOT } from '../support/cli.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';

const PAGES = [
  'README.md',
  ...fs
    .readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...fs
    .readdirSync(path.join(REPO_ROOT, 'docs/journeys'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/journeys/${f}`),
]
  .sort()
  // QR_SANDBOX_DOC_PAGES=api,cli runs only the pages whose path contains one of the words (while fixing a page).
  .filter((page) => !process.env.QR_SANDBOX_DOC_PAGES || process.env.QR_SANDBOX_DOC_PAGES.split(',').some((word) => page.includes(word)));

const UNIT_TIMEOUT_MS = 45_000;
/** What the working folder keeps from page to page: the data folder, the project's bin, the repository's test files. */
const KEPT = ['.qr-sandbox', 'node_modules', 'test'];

interface Answer {
  status: number;
  request: string;
}

/** The environment of a reader's terminal in the working folder: none of npm's or the suite's variables. */
function readerEnv(workDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|INIT_CWD$|NODE_|QR_SANDBOX_)/i.test(name)) continue;
    env[name] = value;
  }
  env.PATH = [path.join(workDir, 'node_modules/.bin'), path.join(REPO_ROOT, 'node_modules/.bin'), process.env.PATH].join(path.delimiter);
  env.NO_COLOR = '1';
  env.TERM = 'dumb';
  return env;
}

/** The unit as the reader runs it, with the test's addresses for the page's. */
function located(code: string, serverPort: number, appPort: number): string {
  return code
    .replace(/\b(127\.0\.0\.1|localhost):8787\b/g, `127.0.0.1:${serverPort}`)
    .replace(/\b(127\.0\.0\.1|localhost):3000\b/g, `127.0.0.1:${appPort}`);
}

/** 4xx answers a script's page announces, as a comment naming the status (`# 404 …`). */
function announced(unit: DocUnit): Set<number> {
  return new Set([...unit.code.matchAll(/#\s*(\d{3})\b/g)].map((m) => Number(m[1])));
}

function describeFailure(page: string, unit: DocUnit, problem: string, detail: string): string {
  const code = unit.code.split('\n').slice(0, 6).join('\n    ');
  return `${page}:${unit.line} ${problem}\n    ${code}\n${detail}`;
}

describe('the docs pages: every shell example runs and prints what its page shows', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-docs-run-'));
  const dataDir = path.join(workDir, '.qr-sandbox');
  const stateDir = path.join(os.tmpdir(), `${path.basename(workDir)}-units`);
  const examples = new Map<string, PageExamples>(
    PAGES.map((page) => [page, pageExamples(fs.readFileSync(path.join(REPO_ROOT, page), 'utf8'))]),
  );
  let server: TestServer;
  let app: http.Server;
  let appPort = 0;
  let defaults: Record<string, unknown> = {};
  let answers: Answer[] = [];
  const started = Date.now();
  const ran = { scripts: 0, commands: 0 };

  before(async () => {
    fs.mkdirSync(path.join(workDir, 'node_modules/.bin'), { recursive: true });
    fs.symlinkSync(path.join(REPO_ROOT, 'bin/qr-sandbox.mjs'), path.join(workDir, 'node_modules/.bin/qr-sandbox'));
    fs.mkdirSync(path.join(workDir, 'test'));
    fs.symlinkSync(path.join(REPO_ROOT, 'test/fixtures'), path.join(workDir, 'test/fixtures'));
    server = await startTestServer({ dataDir });
    server.httpServer.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      // An inbox's answers are to the sandbox's own deliveries (and its fault rules are what a page sets up), not to the page.
      if (!req.url?.startsWith('/inbox/'))
        res.on('finish', () => answers.push({ status: res.statusCode, request: `${req.method} ${req.url}` }));
    });
    app = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":true}'));
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appPort = (app.address() as AddressInfo).port;
    const settings = (await (await server.request('/api/settings')).json()) as Record<string, unknown>;
    defaults = { webhook_retry_schedule: settings.webhook_retry_schedule, allow_http_webhooks: settings.allow_http_webhooks };
  });

  after(async () => {
    const skipped = [...examples].flatMap(([page, found]) => found.skipped.map((s) => `  ${page}:${s.line} ${s.reason}`));
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `docs examples run: ${ran.scripts} scripts, ${ran.commands} console commands, in ${seconds} s; blocks not run: ${skipped.length}`,
    );
    if (skipped.length > 0) console.log(skipped.join('\n'));
    await new Promise<void>((resolve) => app.close(() => resolve()));
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  /** The organization as the first start made it (waiting for an import a page left running), no snapshots, default settings, an empty folder. */
  async function freshPage(): Promise<void> {
    for (let waited = 0; ; waited += 250) {
      const reset = await server.request('/api/reset', jsonBody({ empty: true }));
      if (reset.status === 200) break;
      assert.equal(reset.status, 409, await reset.text());
      if (waited > 60_000) assert.fail('an import of the last page never ended');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    seedDemoServices(server.ctx.db, server.organizationUuid); // what the first start gives an organization
    const snapshots = (await (await server.request('/api/snapshots')).json()) as { items: { name: string }[] };
    for (const { name } of snapshots.items) await server.request(`/api/snapshots/${name}`, { method: 'DELETE' });
    const patch = { ...defaults, webhook_auto_disable_after_s: null, webhook_timeout_s: null, date_order: null };
    assert.equal((await server.request('/api/settings', jsonBody(patch, 'PATCH'))).status, 200);
    for (const entry of fs.readdirSync(workDir)) {
      if (!KEPT.includes(entry)) fs.rmSync(path.join(workDir, entry), { recursive: true, force: true });
    }
  }

  it('follow the convention: transcripts are console blocks, and a block not run says why', () => {
    const mistakes = [...examples].flatMap(([page, found]) => found.mistakes.map((m) => `${page} ${m}`));
    assert.deepEqual(mistakes, []);
  });

  for (const page of PAGES) {
    const found = examples.get(page);
    if (!found || found.units.length === 0) continue;
    it(`${page}: ${found.units.length} examples`, async (t) => {
      await freshPage();
      const env = readerEnv(workDir);
      // A unit that printed something else is reported with every other such unit of the page; one that broke ends the page.
      const differences: string[] = [];
      const shell = new PageShell(path.join(stateDir, page.replaceAll('/', '_')), workDir, env);
      t.after(() => shell.end());
      for (const unit of found.units) {
        answers = [];
        const unitStarted = Date.now();
        const run = await shell.run(unit, located(unit.code, server.port, appPort), UNIT_TIMEOUT_MS);
        if (process.env.QR_SANDBOX_DOC_TIMES) console.log(`${page}:${unit.line} ${Date.now() - unitStarted} ms`);
        ran[unit.kind === 'script' ? 'scripts' : 'commands'] += 1;
        const printed = unit.kind === 'script' ? run.stdout : run.output;
        const detail = `  stdout: ${run.stdout.slice(0, 2000)}\n  stderr: ${run.stderr.slice(0, 2000)}`;
        const broke = (problem: string, more = detail) =>
          assert.fail([...differences, describeFailure(page, unit, problem, more)].join('\n\n'));
        if (run.timedOut) broke(`did not end within ${UNIT_TIMEOUT_MS / 1000} s`);
        if (unit.kind === 'script' && run.code !== 0) broke(`failed with exit status ${run.code ?? '(its shell ended)'}`);
        const refused = answers.filter(
          (a) => a.status >= 500 || (unit.kind === 'script' && a.status >= 400 && !announced(unit).has(a.status)),
        );
        if (refused.length > 0) {
          const list = refused.map((a) => `  ${a.request} -> ${a.status}`).join('\n');
          broke('got answers its page does not show (a 4xx needs a "# <status>" comment in the block)', `${list}\n${detail}`);
        }
        if (unit.expected !== null && !matchesPage(printed, unit.expected)) {
          const shown = `  the page shows (normalised):\n${normalise(unit.expected)}\n  it printed (normalised):\n${normalise(printed)}`;
          differences.push(describeFailure(page, unit, 'printed something else than its page shows', shown));
        }
      }
      if (differences.length > 0) assert.fail(differences.join('\n\n'));
    });
  }
});
