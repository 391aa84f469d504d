/**
 * The convention of the docs that run (test/support/doc-blocks.ts, doc-output.ts, doc-runner.ts),
 * on made-up pages: what is run, what is compared, and that a page that lies fails.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pageExamples } from '../support/doc-blocks.ts';
import { matchesPage } from '../support/doc-output.ts';
import { PageShell } from '../support/doc-runner.ts';

const fence = '```';

describe('docs that run: the convention', () => {
  it('runs sh blocks with their text output, console commands with theirs, and skips only with a reason', () => {
    const page = [
      `${fence}sh`,
      'X=1',
      'echo "$X"',
      fence,
      '',
      `${fence}text`,
      '1',
      fence,
      '',
      `${fence}console`,
      "$ echo 'a' \\",
      '    b',
      'a b',
      '$ echo "it\'s" # a comment\'s quote',
      "it's",
      fence,
      '',
      '<!-- not run: starts a server -->',
      `${fence}sh`,
      'npm run serve',
      fence,
      '<!-- not run -->',
      `${fence}bash`,
      'npm ci',
      fence,
      fence,
      '$ qr-sandbox --version',
      fence,
    ].join('\n');
    const found = pageExamples(page);
    assert.deepEqual(
      found.units.map((u) => [u.kind, u.code, u.expected]),
      [
        ['script', 'X=1\necho "$X"', '1'],
        ['command', "echo 'a' \\\n    b", 'a b'],
        ['command', 'echo "it\'s" # a comment\'s quote', "it's"],
      ],
    );
    assert.deepEqual(found.skipped, [{ line: 19, reason: 'starts a server' }]);
    assert.equal(found.mistakes.length, 2);
    assert.match(found.mistakes[0] ?? '', /line 23: "not run" needs a reason/);
    assert.match(found.mistakes[1] ?? '', /line 26: a transcript .* must be a ```console block/);
  });

  it('compares with uuids, times, ports and durations standing for themselves, and … for any text', () => {
    const shown = 'Webhook 6535620e-5001-47ce-90f4-ac42b32be818 at http://127.0.0.1:8787 in 12 ms, 2026-11-28T15:35:31Z\n…\ndone';
    assert.ok(
      matchesPage('Webhook 1c2b3a4d-0000-4000-8000-000000000001 at http://127.0.0.1:40123 in 3 ms, 2026-12-06T04:00:00Z\ndone', shown),
    );
    assert.ok(matchesPage('{"a":1,"b":{"c":2}}', '{"a":1,…}'));
    assert.ok(!matchesPage('{"a":2,"b":{"c":2}}', '{"a":1,…}'), 'a different value fails');
    assert.ok(!matchesPage('one\ntwo', 'one'), 'a line more fails');
    assert.ok(!matchesPage('Error: 401', '{"items":[]}'));
  });

  it('runs a page in one shell: variables, functions and $? carry on; a failing script ends the page', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-doc-shell-'));
    const shell = new PageShell(path.join(dir, 'units'), dir, process.env);
    try {
      const script = (code: string) => ({ line: 1, kind: 'script' as const, code, expected: null });
      const command = (code: string) => ({ line: 1, kind: 'command' as const, code, expected: null });
      assert.equal((await shell.run(script('N=41; inc() { echo $(($1 + 1)); }'), 'N=41; inc() { echo $(($1 + 1)); }', 10_000)).code, 0);
      assert.equal((await shell.run(command('inc $N'), 'inc $N', 10_000)).output, '42\n');
      assert.equal((await shell.run(command('false'), 'false', 10_000)).code, 1);
      assert.equal(
        (await shell.run(command('echo "exit $?"; echo oops >&2'), 'echo "exit $?"; echo oops >&2', 10_000)).output,
        'exit 1\noops\n',
      );
      const unset = await shell.run(script('echo "$UNDEFINED_ON_THIS_PAGE"'), 'echo "$UNDEFINED_ON_THIS_PAGE"', 10_000);
      assert.equal(unset.code, null, 'set -u ends the page');
      assert.match(unset.stderr, /UNDEFINED_ON_THIS_PAGE: unbound variable/);
    } finally {
      shell.end();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
