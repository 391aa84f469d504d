import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { REPO_ROOT, runCli } from '../support/cli.ts';

/** The machine's own Node (20 here), not the project's Node 22. */
const MACHINE_NODE = '/usr/bin/node';

function shell(command: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd: REPO_ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('bin/qr-sandbox.mjs: how the docs run it', () => {
  let server: ChildServer;
  before(async () => {
    server = await startChildServer();
  });
  after(async () => {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it("runs with the project's Node 22 when started by an older Node", { skip: !fs.existsSync(MACHINE_NODE) }, async () => {
    const machine = await shell(`${MACHINE_NODE} --version`);
    assert.match(machine.stdout, /^v(1\d|20|21)\./, 'the machine Node is older than 22');
    const result = await shell(`${MACHINE_NODE} bin/qr-sandbox.mjs trigger check_in --json --data-dir ${server.dataDir}`);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^\{"event_id":"evt_/);
    assert.doesNotMatch(result.stderr, /needs Node\.js/);
  });

  it('npx qr-sandbox works from the checkout', async () => {
    const result = await shell(`npx --no-install qr-sandbox --version`);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  it('--json piped into a reader that stops early ends quietly: no EPIPE stack trace', async () => {
    const result = await shell(
      `${process.execPath} bin/qr-sandbox.mjs trigger check_in --count 200 --json --data-dir ${server.dataDir} | head -c 10; echo " exit=\${PIPESTATUS[0]}"`,
    );
    assert.match(result.stdout, /^\{"event_id exit=0\n$/);
    assert.equal(result.stderr, '');
  });

  it('<group> --help lists the commands of the group', async () => {
    for (const [group, member] of [
      ['scenario', 'scenario run'],
      ['snapshot', 'snapshot restore'],
      ['inbox rules', 'inbox rules set'],
    ] as const) {
      const result = await runCli([...group.split(' '), '--help']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`^Commands of qr-sandbox ${group}:`));
      assert.match(result.stdout, new RegExp(`\\n  ${member} `));
    }
    const bare = await runCli(['snapshot']);
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /Unknown command: snapshot\n\nCommands of qr-sandbox snapshot:/);
  });

  it('a mistake exits 2 for every command, with one line on stderr', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-nothing-'));
    try {
      for (const args of [
        ['trigger', 'check_in'],
        ['snapshot', 'list'],
        ['reset', '--empty', '--yes'],
        ['deliveries', 'list'],
      ]) {
        const result = await runCli([...args, '--data-dir', dir]);
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, /^Error: No QR Sandbox server is running with the data folder/);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
