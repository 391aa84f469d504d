import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { open } from '../../server/wire-format/open.ts';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { REPO_ROOT, runCli, startCli, type RunningCli } from '../support/cli.ts';
import { answering, startCaptureServer, type CaptureServer, type CapturedRequest } from '../support/inboxes.ts';

/** Headers as an object with lowercased names, from node's raw list. */
function headersOf(raw: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) headers[(raw[i] ?? '').toLowerCase()] = raw[i + 1] ?? '';
  return headers;
}

const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Polls until `check` holds; fails with `what` after a minute (npm and npx start slowly on a busy machine). */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await check()); waited += 200) {
    if (waited > 60_000) assert.fail(what);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Ready {
  webhook_uuid: string;
  secret: string;
  inbox_uuid: string;
  events: string[];
  forward_to: string | null;
}

async function ready(listen: RunningCli): Promise<Ready> {
  await listen.waitFor(/"ready":true/);
  return jsonLines(listen.stdout())[0] as unknown as Ready;
}

describe('qr-sandbox listen: one webhook and secret per forward URL, and the app answers the deliveries', () => {
  let server: ChildServer;
  let app: CaptureServer;
  /** Answers 500 to the first request, 200 after. */
  let flaky: CaptureServer;
  const at = () => ['--data-dir', server.dataDir];
  const webhook = async (uuid: string) =>
    (await server.request(`/api/webhooks/uuid/${uuid}?include_secret=true`)).json() as Promise<{
      is_active: boolean;
      secret: string;
    }>;

  before(async () => {
    server = await startChildServer();
    app = await startCaptureServer(answering(202, 'accepted'));
    let calls = 0;
    flaky = await startCaptureServer((_req: CapturedRequest, res: http.ServerResponse) => {
      calls += 1;
      res.statusCode = calls === 1 ? 500 : 200;
      res.end(calls === 1 ? 'not yet' : 'ok');
    });
  });
  after(async () => {
    await Promise.all([app.close(), flaky.close()]);
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('forwards the exact body and headers, signed with the secret it printed, and prints the attempt with the app status', async () => {
    const listen = startCli(['listen', '--forward-to', `${app.url}/webhooks`, '--events', 'check_in', '--json', ...at()]);
    const first = await ready(listen);
    assert.deepEqual(first.events, ['service_confirmation.check_in']);
    assert.equal(first.forward_to, `${app.url}/webhooks`);

    const ignored = await runCli(['trigger', 'check_out', '--json', ...at()]);
    assert.match(ignored.stdout, /"deliveries":\[\]/, 'not subscribed to check_out');
    const triggered = await runCli(['trigger', 'check_in', '--json', ...at()]);
    assert.equal(triggered.code, 0, triggered.stderr);
    const { event_id: eventId } = JSON.parse(triggered.stdout) as { event_id: string };

    const [received] = await app.waitFor(1);
    assert.ok(received);
    assert.equal(received.url, '/webhooks');
    await listen.waitFor(/"type":"attempt"/);
    const attempt = jsonLines(listen.stdout()).find((line) => line.type === 'attempt');
    assert.equal(attempt?.event_id, eventId);
    assert.equal(attempt?.attempt, 1);
    assert.equal(attempt?.status_code, 202, "the app's status is the attempt's");
    assert.equal(attempt?.delivery_status, 'delivered');
    assert.equal(attempt?.signature, 'valid');
    assert.equal((attempt?.app as { status_code?: number } | null)?.status_code, 202);

    const headers = headersOf(received.rawHeaders);
    const opened = open(received.body.toString('utf8'), headers['x-service-signature'] ?? '', first.secret);
    assert.equal(opened.verified, true, 'the signature verifies with the secret listen printed');
    assert.equal((opened.json as { id: string }).id, eventId);

    const deliveries = (await (
      await server.request(`/api/webhooks/uuid/${first.webhook_uuid}/deliveries?organization_uuid=${server.organizationUuid}`)
    ).json()) as { items: Array<{ attempts: Array<{ request_headers: Record<string, string>; request_body: string }> }> };
    const sent = deliveries.items[0]?.attempts[0];
    assert.ok(sent);
    assert.equal(received.body.toString('utf8'), sent.request_body, 'the body bytes the service sent');
    for (const [name, value] of Object.entries(sent.request_headers)) assert.equal(headers[name.toLowerCase()], value, `header ${name}`);

    listen.signal('SIGTERM');
    const ended = await listen.done;
    assert.equal(ended.code, 0, ended.stderr);
    assert.match(ended.stderr, /Paused webhook .* keeps its secret/);

    // A second run on the same data dir and forward URL: the same webhook and secret, nothing duplicated.
    const again = startCli(['listen', '--forward-to', `${app.url}/webhooks`, '--json', ...at()]);
    const second = await ready(again);
    assert.equal(second.webhook_uuid, first.webhook_uuid);
    assert.equal(second.secret, first.secret);
    assert.equal((await webhook(first.webhook_uuid)).is_active, true);
    again.signal('SIGHUP');
    assert.equal((await again.done).code, 0);
    assert.equal((await webhook(first.webhook_uuid)).is_active, false, 'SIGHUP pauses it too');

    const printed = await runCli(['listen', '--forward-to', `${app.url}/webhooks`, '--print-secret', ...at()]);
    assert.equal(printed.code, 0, printed.stderr);
    assert.equal(printed.stdout, `${first.secret}\n`);
    const list = (await (await server.request(`/api/webhooks?organization_uuid=${server.organizationUuid}`)).json()) as { total: number };
    assert.equal(list.total, 1, 'one webhook for the forward URL');
  });

  it('signs with --secret (or QR_SANDBOX_WEBHOOK_SECRET) so the app can be given it beforehand', async () => {
    const given = 'my-app-secret-1234';
    const listen = startCli(['listen', '--forward-to', `${app.url}/given`, '--secret', given, '--json', ...at()]);
    assert.equal((await ready(listen)).secret, given);
    await runCli(['trigger', 'delivery', ...at()]);
    await listen.waitFor(/"type":"attempt"/);
    const received = app.requests.find((r) => r.url === '/given');
    assert.ok(received);
    const signature = headersOf(received.rawHeaders)['x-service-signature'] ?? '';
    assert.equal(open(received.body.toString('utf8'), signature, given).verified, true);
    listen.signal('SIGINT');
    await listen.done;

    const fromEnv = await runCli(['listen', '--forward-to', `${app.url}/given`, '--print-secret', ...at()], {
      env: { QR_SANDBOX_WEBHOOK_SECRET: 'another-secret-5678' },
    });
    assert.equal(fromEnv.stdout, 'another-secret-5678\n');
    const bad = await runCli(['listen', '--secret', 'short', ...at()]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--secret must be 8 to 512 printable ASCII characters/);
  });

  it("retries the app's 500 to the app, and prints each attempt with its number and the app's status", async () => {
    const listen = startCli(['listen', '--forward-to', `${flaky.url}/hook`, '--retry-schedule', 'fast', ...at()]);
    await listen.waitFor(/^Ready\. /m);
    await runCli(['trigger', 'check_in', ...at()]);
    await listen.waitFor(/#2 {2}app 200 in \d+ ms {2}delivered/);
    const lines = listen.stdout().trim().split('\n').slice(1);
    assert.match(
      lines[0] ?? '',
      /^\d\d:\d\d:\d\d {2}check_in {2}evt_\S+ {2}#1 {2}app 500 in \d+ ms {2}retry at \d\d:\d\d:\d\d {2}signature valid$/,
    );
    assert.match(lines[1] ?? '', /#2 {2}app 200 in \d+ ms {2}delivered {2}signature valid$/);
    for (const line of lines) assert.ok(line.length <= 200, `a short line: ${line.length} chars`);
    assert.equal(flaky.requests.length, 2, 'the retry went to the app');
    listen.signal('SIGTERM');
    await listen.done;
  });

  it("shows an inbox rule's fault instead of calling the app, and the app gets the retry", async () => {
    const listen = startCli(['listen', '--forward-to', `${app.url}/faults`, '--retry-schedule', 'fast', '--json', ...at()]);
    const { inbox_uuid: inbox } = await ready(listen);
    const rules = await runCli(['inbox', 'rules', 'set', '--inbox', inbox, '--fail-first', '1', '--status', '503', ...at()]);
    assert.equal(rules.code, 0, rules.stderr);
    await runCli(['trigger', 'check_out', ...at()]);
    await listen.waitFor(/"attempt":2,[^\n]*"delivery_status":"delivered"/);
    const attempts = jsonLines(listen.stdout()).filter((line) => line.type === 'attempt');
    assert.deepEqual(attempts[0]?.fault, { rule: 1, kind: 'fault_status', status: 503 });
    assert.equal(attempts[0]?.status_code, 503);
    assert.equal(attempts[0]?.app, null, 'the app was not called for the faulted attempt');
    assert.equal(attempts[1]?.status_code, 202);
    assert.equal(app.requests.filter((r) => r.url === '/faults').length, 1, 'the app got the retry only');
    listen.signal('SIGTERM');
    await listen.done;
  });

  it('after a reset, registers again and keeps receiving', async () => {
    const listen = startCli(['listen', '--forward-to', `${app.url}/after-reset`, '--secret', 'kept-across-reset', '--json', ...at()]);
    const before = await ready(listen);
    const reset = await runCli(['reset', '--empty', '--yes', ...at()]);
    assert.equal(reset.code, 0, reset.stderr);
    await listen.waitFor(/registered again with the same secret/);
    await listen.waitFor(/"ready":true[\s\S]*"ready":true/);
    const lines = jsonLines(listen.stdout()).filter((line) => line.ready === true);
    const after = lines.at(-1) as unknown as Ready;
    assert.notEqual(after.webhook_uuid, before.webhook_uuid);
    assert.equal(after.secret, 'kept-across-reset');
    await runCli(['trigger', 'check_in', ...at()]);
    await listen.waitFor(/"type":"attempt"[^\n]*"delivery_status":"delivered"/);
    listen.signal('SIGTERM');
    assert.equal((await listen.done).code, 0);
  });

  it('runs one listen per forward URL: a second refuses (exit 2) naming the first, --cleanup waits for it, and a killed one blocks nothing', async () => {
    const url = `${app.url}/shared`;
    const first = startCli(['listen', '--forward-to', url, '--json', ...at()]);
    const { webhook_uuid: uuid, secret } = await ready(first);
    const second = await runCli(['listen', '--forward-to', url, ...at()]);
    assert.equal(second.code, 2, second.stderr);
    assert.match(second.stderr, new RegExp(`Another listen \\(pid \\d+\\) forwarding to ${url.replaceAll('.', '\\.')} is already running`));
    assert.match(second.stderr, /stop that one first \(Ctrl\+C\), or give another --forward-to/);
    const printed = await runCli(['listen', '--forward-to', url, '--print-secret', ...at()]);
    assert.equal(printed.stdout, `${secret}\n`, "the running listen's secret, unchanged");
    const other = await runCli(['listen', '--forward-to', url, '--print-secret', '--secret', 'another-secret-0123', ...at()]);
    assert.equal(other.code, 2, 'no other secret under a running listen');
    const cleanup = await runCli(['listen', '--cleanup', ...at()]);
    assert.equal(cleanup.code, 2, cleanup.stderr);
    assert.match(cleanup.stderr, /listen --cleanup would remove or change the webhook of listen \(pid \d+\) forwarding to/);
    assert.deepEqual(
      [(await webhook(uuid)).is_active, (await webhook(uuid)).secret],
      [true, secret],
      'the first listen keeps its active webhook and secret',
    );
    first.signal('SIGKILL');
    await first.done;
    const next = startCli(['listen', '--forward-to', url, '--json', ...at()]);
    assert.equal((await ready(next)).webhook_uuid, uuid, 'a listen killed with -9 leaves no lock behind');
    next.signal('SIGINT');
    assert.equal((await next.done).code, 0);
    assert.equal((await webhook(uuid)).is_active, false);
  });

  it('--cleanup removes every webhook and inbox listen registered', async () => {
    const cleaned = await runCli(['listen', '--cleanup', ...at()]);
    assert.equal(cleaned.code, 0, cleaned.stderr);
    assert.match(cleaned.stdout, /^Removed webhook [0-9a-f-]+, inbox [0-9a-f-]+ \(-> http/);
    const webhooks = (await (await server.request(`/api/webhooks?organization_uuid=${server.organizationUuid}`)).json()) as {
      total: number;
    };
    assert.equal(webhooks.total, 0);
    const inboxes = (await (await server.request(`/api/inboxes?organization_uuid=${server.organizationUuid}`)).json()) as {
      total: number;
    };
    assert.equal(inboxes.total, 0);
    assert.equal((await runCli(['listen', '--cleanup', ...at()])).stdout, 'Nothing to remove: no webhook or inbox of listen.\n');
  });

  it('webhooks list shows the leftovers and webhooks delete removes them', async () => {
    const printed = await runCli(['listen', '--forward-to', `${app.url}/leftover`, '--print-secret', '--json', ...at()]);
    const { webhook_uuid: uuid } = JSON.parse(printed.stdout) as { webhook_uuid: string };
    const listed = await runCli(['webhooks', 'list', ...at()]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^UUID +ACTIVE +URL +EVENTS\n/);
    assert.match(
      listed.stdout,
      new RegExp(`^${uuid} +no +http://127\\.0\\.0\\.1:\\d+/inbox/[0-9a-f-]+ +check_in,check_out,delivery$`, 'm'),
    );
    const deleted = await runCli(['webhooks', 'delete', uuid, ...at()]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, `Deleted webhook ${uuid}.\n`);
    assert.equal((await server.request(`/api/webhooks/uuid/${uuid}`)).status, 404);
    const again = await runCli(['webhooks', 'delete', uuid, ...at()]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /no such resource \(404\)/);
  });

  for (const [how, command] of [
    ['npm run cli', ['npm', 'run', '--silent', 'cli', '--']],
    ['npx', ['npx', '--no-install', 'qr-sandbox']],
  ] as const) {
    it(`pauses its webhook when the ${how} process it was started through gets SIGTERM`, async () => {
      const [program = '', ...args] = command;
      const child = spawn(program, [...args, 'listen', '--json', ...at()], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      await until(async () => /"ready":true/.test(output), `listen through ${how} never got ready:\n${output}`);
      const { webhook_uuid: uuid } = jsonLines(output)[0] as unknown as Ready;
      assert.equal((await webhook(uuid)).is_active, true);
      child.kill('SIGTERM');
      await until(async () => !(await webhook(uuid)).is_active, `the webhook was never paused:\n${output}`);
    });
  }

  it('says so and exits 2 when the server goes away under it', async () => {
    const listen = startCli(['listen', ...at()]);
    await listen.waitFor(/^Ready\. Webhook /m);
    await server.stop();
    const ended = await listen.done;
    assert.equal(ended.code, 2, ended.stderr);
    assert.match(ended.stderr, /ended the live stream \(the server stopped\?\)\. Stopped listening/);
  });
});
