/** qr-sandbox tasks cancel / tasks retry, as processes against a real serve process. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { GATED_GEOCODER_MODULE, GEOCODER_GATE_ENV } from '../support/gated-geocoder.ts';
import { addressCsv, fileUpload } from '../support/imports.ts';
import { runCli, spawnServe } from '../support/cli.ts';
import { bearer } from '../support/server.ts';
import { suiteTempDirs } from '../support/suite-server.ts';

const freshDir = suiteTempDirs();

describe('qr-sandbox tasks cancel and retry', () => {
  it('cancels a running import, retries it, and explains a wrong uuid', async () => {
    const dir = freshDir();
    // The import waits at its start until the cancel has been asked for: it cannot end first on a fast machine.
    const gate = path.join(dir, 'geocoder-gate');
    process.env.QR_SANDBOX_GEOCODER_MODULE = GATED_GEOCODER_MODULE;
    process.env[GEOCODER_GATE_ENV] = gate;
    const serve = await spawnServe(['--data-dir', dir]);
    delete process.env.QR_SANDBOX_GEOCODER_MODULE;
    delete process.env[GEOCODER_GATE_ENV];
    try {
      const credentials = JSON.parse(fs.readFileSync(path.join(dir, 'credentials.json'), 'utf8')) as {
        organization_uuid: string;
        api_key: string;
        api_secret: string;
      };
      const api = (pathname: string, init: RequestInit = {}) =>
        fetch(`${serve.url}${pathname}`, { ...init, headers: { authorization: bearer(credentials) } });
      const accepted = await api(
        '/api/qrcodes/bulk',
        fileUpload(addressCsv(12_000, 'CLI'), 'cli.csv', { organization_uuid: credentials.organization_uuid }),
      );
      assert.equal(accepted.status, 202);
      const { background_task_uuid: uuid } = (await accepted.json()) as { background_task_uuid: string };
      const task = async () => (await (await api(`/api/background-tasks/uuid/${uuid}`)).json()) as { status: string; uuid: string };
      const target = ['--url', serve.url, '--data-dir', dir];

      const cancel = await runCli(['tasks', 'cancel', uuid, ...target]);
      assert.equal(cancel.code, 0, cancel.stderr);
      assert.match(cancel.stdout, new RegExp(`^(Cancelling task ${uuid}: it stops after the batch|Cancelled task ${uuid}: Cancelled by)`));
      fs.writeFileSync(gate, '');
      for (let polls = 0; (await task()).status !== 'FAILED'; polls++) {
        assert.ok(polls < 1000, 'the import ends FAILED');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const retry = await runCli(['tasks', 'retry', uuid, ...target, '--json']);
      assert.equal(retry.code, 0, retry.stderr);
      const started = JSON.parse(retry.stdout) as { background_task_uuid: string; status: string };
      assert.equal(started.status, 'processing');
      const watch = await runCli(['tasks', 'watch', started.background_task_uuid, ...target]);
      assert.equal(watch.code, 0, watch.stderr);

      const again = await runCli(['tasks', 'retry', uuid, ...target]);
      assert.equal(again.code, 2);
      assert.match(again.stderr, /retried already, as task/);
      const unknown = await runCli(['tasks', 'cancel', '00000000-0000-0000-0000-000000000000', ...target]);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /not found/i);
      const none = await runCli(['tasks', 'cancel', ...target]);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /takes one task uuid/);
    } finally {
      assert.equal(await serve.stop(), 0);
    }
  });
});
