import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { runCli, startCli, type RunningCli } from '../support/cli.ts';

interface Arrival {
  uuid: string;
  event_id: string | null;
  event_type: string | null;
  signature_status: string;
  duplicate_of: string | null;
  envelope: { data?: Record<string, unknown> } | null;
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the webhook developer loop from a terminal: trigger, scenario run, listen, wait', () => {
  let server: ChildServer;
  let listen: RunningCli;
  let inboxUuid = '';
  let webhookUuid = '';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-cli-loop-'));
  const at = () => ['--data-dir', server.dataDir];

  /** Every message of listen's inbox, oldest first. */
  async function arrivals(): Promise<Arrival[]> {
    const res = await server.request(
      `/api/inboxes/uuid/${inboxUuid}/messages/wait?organization_uuid=${server.organizationUuid}&timeout_s=0`,
    );
    assert.equal(res.status, 200);
    return ((await res.json()) as { messages: Arrival[] }).messages;
  }
  const lastArrival = async () => (await arrivals()).at(-1)?.uuid ?? '';
  const eventIds = (stdout: string) => jsonLines(stdout).map((line) => String(line.event_id));

  before(async () => {
    server = await startChildServer();
    // It runs for the whole suite.
    listen = startCli(['listen', '--json', ...at()], { timeoutMs: 10 * 60_000 });
    await listen.waitFor(/"ready":true/);
    const ready = jsonLines(listen.stdout())[0] ?? {};
    inboxUuid = String(ready.inbox_uuid);
    webhookUuid = String(ready.webhook_uuid);
    assert.match(String(ready.secret), /^[0-9a-f]{64}$/);
  });
  after(async () => {
    listen.signal('SIGKILL');
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('triggers an event with fields from a --data file, and wait sees it arrive with a valid signature', async () => {
    const data = path.join(tmp, 'note.json');
    fs.writeFileSync(data, JSON.stringify({ note: 'Left with the concierge', is_sms: true }));
    const triggered = await runCli(['trigger', 'delivery', '--data', data, '--json', ...at()]);
    assert.equal(triggered.code, 0, triggered.stderr);
    const [line] = jsonLines(triggered.stdout);
    assert.match(String(line?.event_id), /^evt_/);
    const waited = await runCli([
      'wait',
      '--event',
      'delivery',
      '--qr-code',
      String(line?.qr_code_uuid),
      '--signature',
      'valid',
      '--json',
      ...at(),
    ]);
    assert.equal(waited.code, 0, waited.stderr);
    assert.ok(eventIds(waited.stdout).includes(String(line?.event_id)));
    await listen.waitFor(new RegExp(`"event_id":"${String(line?.event_id)}"[^\\n]*"note":"Left with the concierge"`));
    const human = await runCli(['trigger', 'check_in', '--count', '3', ...at()]);
    assert.equal(human.code, 0, human.stderr);
    assert.equal(human.stdout.match(/^evt_\S+ {2}service_confirmation\.check_in {2}qr_code \S+ {2}\(1 delivery\)$/gm)?.length, 3);
  });

  it('runs visit and out-of-order, whose deliveries arrive in the order of the scenario', async () => {
    for (const [name, order] of [
      ['visit', ['service_confirmation.check_in', 'service_confirmation.check_out']],
      ['out-of-order', ['service_confirmation.check_out', 'service_confirmation.check_in']],
    ] as const) {
      const run = await runCli(['scenario', 'run', name, '--json', ...at()]);
      assert.equal(run.code, 0, run.stderr);
      const sent = jsonLines(run.stdout);
      assert.deepEqual(
        sent.map((line) => line.event_type),
        order,
      );
      const ids = sent.map((line) => String(line.event_id));
      const arrived = (await arrivals()).filter((m) => m.event_id !== null && ids.includes(m.event_id));
      assert.deepEqual(
        arrived.map((m) => m.event_id),
        ids,
        `${name}: arrival order`,
      );
      const [first, second] = arrived.map((m) => m.envelope?.data);
      assert.equal(first?.qr_code_uuid, second?.qr_code_uuid, `${name}: one visit, one QR code`);
      assert.equal(first?.checked_in_at, second?.checked_in_at, `${name}: the same visit's check-in time`);
    }
  });

  it('runs duplicate: the same event id arrives twice, the second marked as a duplicate', async () => {
    const run = await runCli(['scenario', 'run', 'duplicate', '--json', ...at()]);
    assert.equal(run.code, 0, run.stderr);
    const [original, again] = jsonLines(run.stdout);
    assert.equal(original?.redelivered, false);
    assert.equal(again?.redelivered, true);
    assert.equal(again?.event_id, original?.event_id);
    const arrived = (await arrivals()).filter((m) => m.event_id === original?.event_id);
    assert.equal(arrived.length, 2);
    assert.equal(arrived[1]?.duplicate_of, arrived[0]?.uuid);
  });

  it('runs burst and delivery-day with --count, and wait --count --since sees them all', async () => {
    for (const [name, count] of [
      ['burst', 5],
      ['delivery-day', 4],
    ] as const) {
      const since = await lastArrival();
      const run = await runCli(['scenario', 'run', name, '--count', String(count), '--json', ...at()]);
      assert.equal(run.code, 0, run.stderr);
      const ids = eventIds(run.stdout);
      assert.equal(new Set(ids).size, count);
      const waited = await runCli(['wait', '--event', 'delivery', '--count', String(count), '--since', since, '--json', ...at()]);
      assert.equal(waited.code, 0, waited.stderr);
      assert.deepEqual(new Set(eventIds(waited.stdout)), new Set(ids));
    }
  });

  it('runs a scenario file with labels, data, delays and a redelivery', async () => {
    const file = path.join(tmp, 'custom.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        name: 'custom',
        steps: [
          { id: 'in', event: 'check_in', qr_code: '@gate', data: { note: 'Badge 17' }, wait_delivered: true },
          { event: 'service_confirmation.check_out', qr_code: '@gate', delay_ms: 10, wait_delivered: true },
          { redeliver: 'in', wait_delivered: true },
        ],
      }),
    );
    const run = await runCli(['scenario', 'run', file, '--json', ...at()]);
    assert.equal(run.code, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    assert.deepEqual(
      lines.map((l) => [l.step, l.event_type, l.redelivered]),
      [
        [1, 'service_confirmation.check_in', false],
        [2, 'service_confirmation.check_out', false],
        [3, 'service_confirmation.check_in', true],
      ],
    );
    assert.equal(lines[0]?.qr_code_uuid, lines[1]?.qr_code_uuid);
    assert.match(run.stderr, /Scenario custom: 2 events recorded, 3 deliveries/);
  });

  it('wait exits 1 on timeout, saying what did arrive', async () => {
    const since = await lastArrival();
    const triggered = await runCli(['trigger', 'delivery', '--json', ...at()]);
    await listen.waitFor(new RegExp(`"event_id":"${eventIds(triggered.stdout)[0]}"`));
    const waited = await runCli(['wait', '--event', 'check_out', '--since', since, '--timeout', '1', ...at()]);
    assert.equal(waited.code, 1);
    assert.match(
      waited.stderr,
      /Timed out after 1 s waiting for 1 service_confirmation\.check_out: 0 matched; arrived: 1 service_confirmation\.delivery \(signature valid/,
    );
  });

  it('wait --since an event id waits for that event first, then counts what comes after it', async () => {
    const triggered = await runCli(['trigger', 'check_in', '--json', ...at()]);
    const { event_id: eventId } = JSON.parse(triggered.stdout) as { event_id: string };
    const waiting = startCli(['wait', '--event', 'check_out', '--since', eventId, '--json', ...at()]);
    // The check-out must arrive after the check-in to count: sent once listen has shown the check-in.
    await listen.waitFor(new RegExp(`"event_id":"${eventId}"`));
    const later = await runCli(['trigger', 'check_out', '--json', ...at()]);
    const result = await waiting.done;
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(eventIds(result.stdout), eventIds(later.stdout));
    const never = await runCli(['wait', '--since', 'evt_never', '--timeout', '1', ...at()]);
    assert.equal(never.code, 1);
    assert.match(never.stderr, /event evt_never \(--since\) has not arrived in the inbox/);
  });

  it('finds the server by QR_SANDBOX_URL and QR_SANDBOX_KEY', async () => {
    const env = { QR_SANDBOX_URL: server.url, QR_SANDBOX_KEY: server.auth.slice('Bearer '.length) };
    const run = await runCli(['trigger', 'check_in', '--json', '--data-dir', tmp], { env });
    assert.equal(run.code, 0, run.stderr);
    assert.match(String(jsonLines(run.stdout)[0]?.event_id), /^evt_/);
  });

  it('refuses bad input with a message that says what to do, exit 2', async () => {
    /** A data dir whose server was killed: its lock file names a process that has ended. */
    const staleDir = () => {
      const dir = fs.mkdtempSync(path.join(tmp, 'stale-'));
      const ended = spawnSync(process.execPath, ['-e', '0']).pid;
      fs.writeFileSync(path.join(dir, 'qr-sandbox.lock'), JSON.stringify({ pid: ended, url: 'http://127.0.0.1:9' }));
      return dir;
    };
    const write = (name: string, text: string) => {
      fs.writeFileSync(path.join(tmp, name), text);
      return path.join(tmp, name);
    };
    const cases: Array<[string[], RegExp]> = [
      [
        ['scenario', 'run', 'rush-hour', ...at()],
        /No scenario named "rush-hour"\. Built-in scenarios: visit, delivery-day, burst, duplicate, out-of-order/,
      ],
      [
        ['scenario', 'run', write('bad.json', JSON.stringify({ steps: [{ event: 'check_in' }, { event: 'lunch', cont: 2 }] })), ...at()],
        /step 2, field event: must be check_in, check_out or delivery[\s\S]*step 2: unknown field "cont"/,
      ],
      [
        ['scenario', 'run', write('redeliver.json', JSON.stringify({ steps: [{ redeliver: 'x' }] })), ...at()],
        /step 1, field redeliver: no earlier step has id "x"/,
      ],
      [['scenario', 'run', write('broken.json', '{"steps": ['), ...at()], /Scenario file .*broken\.json is not valid JSON/],
      [['trigger', 'check_in', '--data', write('data.json', '{note: hi}'), ...at()], /--data file .*data\.json is not valid JSON/],
      [['trigger', 'check_in', '--data', write('list.json', '[]'), ...at()], /must hold one JSON object/],
      [['trigger', 'check_in', '--data', write('field.json', '{"notes": "x"}'), ...at()], /overrides.*notes/],
      [['trigger', 'lunch', ...at()], /Unknown event "lunch"/],
      [['trigger', 'delivery', '--count', '0', ...at()], /--count must be a whole number from 1 to 1000/],
      [['wait', '--signature', 'maybe', ...at()], /--signature must be one of valid, invalid, unknown/],
      [['wait', '--since', 'no-such-message', '--timeout', '1', ...at()], /Message or event no-such-message in inbox/],
      [['listen', '--forward-to', 'localhost:3000', ...at()], /--forward-to must be the http\(s\) URL/],
      [
        ['trigger', 'check_in', '--data-dir', tmp],
        /No QR Sandbox server is running with the data folder .*Start one with: qr-sandbox serve --data-dir/,
      ],
      [['trigger', 'check_in', '--data-dir', staleDir()], /The QR Sandbox server of .* \(pid \d+\) is no longer running\. Start one with/],
    ];
    // Three at a time: the machine has few cores, and each is a Node process starting.
    for (let i = 0; i < cases.length; i += 3) {
      const batch = cases.slice(i, i + 3);
      const results = await Promise.all(batch.map(([args]) => runCli(args)));
      batch.forEach(([args, message], j) => {
        assert.equal(results[j]?.code, 2, `${args.join(' ')}: ${results[j]?.stderr}`);
        assert.match(results[j]?.stderr ?? '', message, args.join(' '));
      });
    }
  });

  it('shows examples in --help', async () => {
    for (const command of [['trigger'], ['scenario', 'run'], ['listen'], ['wait']]) {
      const help = await runCli([...command, '--help']);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /Examples:\n {2}qr-sandbox /, command.join(' '));
      assert.match(help.stdout, /--json/);
    }
  });

  it('on Ctrl+C, listen pauses its webhook (kept with its inbox and secret for the next run) and exits 0', async () => {
    listen.signal('SIGINT');
    const result = await listen.done;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, new RegExp(`Paused webhook ${webhookUuid}; it keeps its secret for the next listen`));
    const webhook = (await (await server.request(`/api/webhooks/uuid/${webhookUuid}`)).json()) as { is_active: boolean };
    assert.equal(webhook.is_active, false);
    assert.equal((await server.request(`/api/inboxes/uuid/${inboxUuid}`)).status, 200);
    const cleaned = await runCli(['listen', '--cleanup', ...at()]);
    assert.match(cleaned.stdout, new RegExp(`Removed webhook ${webhookUuid}, inbox ${inboxUuid}\\.`));
    const waited = await runCli(['wait', '--timeout', '1', ...at()]);
    assert.equal(waited.code, 2);
    assert.match(waited.stderr, /start qr-sandbox listen first, or pass --inbox UUID/);
  });
});
