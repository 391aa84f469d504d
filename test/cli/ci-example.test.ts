import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { open } from '../../server/wire-format/open.ts';
import { TINY_GEOCODER_URL } from '../support/child-server.ts';
import { REPO_ROOT } from '../support/cli.ts';
import { startCaptureServer, type CaptureServer, type CapturedRequest } from '../support/inboxes.ts';

const SCRIPT = path.join(REPO_ROOT, 'docs', 'examples', 'ci-webhooks.sh');
const SECRET = 'ci-secret-0123456789abcdef';
/** The machine's own Node (20 on this machine), as a CI job without the project's Node would have it. */
const MACHINE_NODE = '/usr/bin/node';

/** The app's verdict on a delivery, from the reference's rules alone: decrypt, then check the HMAC with its secret. */
function opened(req: CapturedRequest): { type: string } | null {
  const at = req.rawHeaders.findIndex((h) => h.toLowerCase() === 'x-service-signature');
  try {
    const result = open(req.body.toString('utf8'), req.rawHeaders[at + 1] ?? '', SECRET);
    return result.verified ? (result.json as { type: string }) : null;
  } catch {
    return null;
  }
}

/** An app that refuses (401) every delivery whose signature does not verify with SECRET. */
function verifying(req: CapturedRequest, res: http.ServerResponse): void {
  res.statusCode = opened(req) ? 200 : 401;
  res.end(res.statusCode === 200 ? '{"ok":true}' : '{"error":"bad signature"}');
}

/** Runs the CI example as docs/webhook-developer.md shows, with the machine's Node first on the PATH. */
function runScript(appUrl: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-machine-node-'));
  fs.symlinkSync(MACHINE_NODE, path.join(bin, 'node'));
  const { QR_SANDBOX: _unset, QR_SANDBOX_WEBHOOK_SECRET: _none, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [SCRIPT], {
      cwd: os.tmpdir(),
      env: {
        ...inherited,
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        APP_URL: appUrl,
        QR_SANDBOX_GEOCODER_MODULE: process.env.QR_SANDBOX_GEOCODER_MODULE ?? TINY_GEOCODER_URL,
        ...env,
      },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CI example did not finish:\n${output}`));
    }, 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      fs.rmSync(bin, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

describe('the CI example script (docs/examples/ci-webhooks.sh)', { skip: !fs.existsSync(MACHINE_NODE) }, () => {
  let app: CaptureServer;
  before(async () => {
    app = await startCaptureServer(verifying);
  });
  after(async () => {
    await app.close();
  });

  it('passes against an app that verifies signatures, given the same QR_SANDBOX_WEBHOOK_SECRET, on the machine Node', async () => {
    const result = await runScript(`${app.url}/webhooks`, { QR_SANDBOX_WEBHOOK_SECRET: SECRET, SCENARIO: 'visit' });
    assert.equal(result.code, 0, result.output);
    assert.match(result.output, /Sent 2 events of scenario visit\.[\s\S]*The app accepted all 2 deliveries\./);
    assert.doesNotMatch(result.output, /needs Node\.js/);
    assert.deepEqual(
      app.requests.map((r) => opened(r)?.type),
      ['service_confirmation.check_in', 'service_confirmation.check_out'],
    );
  });

  it('fails, showing the app refused them, when the app does not know the secret', async () => {
    app.requests.length = 0;
    const result = await runScript(`${app.url}/webhooks`, { SCENARIO: 'visit' });
    assert.equal(result.code, 1, result.output);
    assert.match(result.output, /"status_code":401/);
    assert.match(result.output, /bad signature/);
    assert.match(result.output, /did not accept every delivery/);
  });
});
