import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';
import { deathLine } from '../../server/imports/workers/worker-process.ts';

/** A task a worker died in says why: the uncaught error's line from the worker's stderr, not "Node.js v22". */
it('reads the uncaught error out of a dead Node process stderr', () => {
  const dead = spawnSync(process.execPath, ['-e', "setTimeout(() => { throw new TypeError('the sheet stream broke'); })"], {
    encoding: 'utf8',
  });
  assert.equal(dead.status, 1);
  assert.match(dead.stderr, /Node\.js v\d/, 'Node ends the report with its version line');
  assert.equal(deathLine(dead.stderr), 'TypeError: the sheet stream broke');
  const event = spawnSync(process.execPath, ['-e', "require('node:fs').createReadStream('/no/such/file')"], { encoding: 'utf8' });
  assert.match(deathLine(event.stderr) ?? '', /^Error: ENOENT: no such file or directory, open '\/no\/such\/file'/);
  assert.equal(deathLine('killed by the kernel\n'), 'killed by the kernel');
  assert.equal(deathLine(''), undefined);
});
