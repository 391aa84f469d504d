import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { TINY_GEOCODER_URL } from '../support/child-server.ts';
import { REPO_ROOT } from '../support/cli.ts';
import { answering, startCaptureServer, type CaptureServer } from '../support/inboxes.ts';
import { readAsReference } from '../support/reference-receiver.ts';

const SCRIPT = path.join(REPO_ROOT, 'docs', 'examples', 'ci-webhooks.sh');

/** Runs the CI example of docs/webhook-developer.md as a CI job would, against `appUrl`. */
function runScript(appUrl: string, scenario: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [SCRIPT], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        APP_URL: appUrl,
        SCENARIO: scenario,
        QR_SANDBOX: `${process.execPath} ${path.join(REPO_ROOT, 'bin', 'qr-sandbox.mjs')}`,
        QR_SANDBOX_GEOCODER_MODULE: process.env.QR_SANDBOX_GEOCODER_MODULE ?? TINY_GEOCODER_URL,
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
      resolve({ code, output });
    });
  });
}

describe('the CI example script (docs/examples/ci-webhooks.sh)', () => {
  let app: CaptureServer;
  let failing: CaptureServer;
  before(async () => {
    app = await startCaptureServer();
    failing = await startCaptureServer(answering(500, 'boom'));
  });
  after(async () => {
    await app.close();
    await failing.close();
  });

  it('starts a server, forwards a visit to the app, waits for it and stops: exit 0', async () => {
    const result = await runScript(`${app.url}/webhooks`, 'visit');
    assert.equal(result.code, 0, result.output);
    assert.match(result.output, /Sent 2 events of scenario visit\.[\s\S]*The app accepted all 2 deliveries\./);
    const events = app.requests.map((r) => readAsReference(r).envelope.type);
    assert.deepEqual(events, ['service_confirmation.check_in', 'service_confirmation.check_out']);
  });

  it('fails when the app does not accept the deliveries', async () => {
    const result = await runScript(`${failing.url}/webhooks`, 'delivery-day');
    assert.notEqual(result.code, 0);
    assert.match(result.output, /did not accept every delivery/);
    assert.match(result.output, /"status_code":500/);
  });
});
