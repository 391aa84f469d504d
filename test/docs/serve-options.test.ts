import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

interface HelpOption {
  flag: string;
  default: string | null;
}

async function serveHelp(): Promise<HelpOption[]> {
  const { stdout } = await run(process.execPath, [path.join(root, 'bin/qr-sandbox.mjs'), 'serve', '--help']);
  return stdout
    .split('\n')
    .map((line) => /^ {2}(--[a-z0-9-]+)(?: VALUE)?\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null && match[1] !== '--help')
    .map((match) => ({ flag: match[1] ?? '', default: /Default (.*)$/.exec(match[2] ?? '')?.[1] ?? null }));
}

/** The rows of docs/cli.md's `serve` options table: flag and default column. */
function documentedOptions(): Map<string, string> {
  const text = fs.readFileSync(path.join(root, 'docs/cli.md'), 'utf8');
  const table = text.slice(text.indexOf('## `serve` options'));
  const rows = new Map<string, string>();
  for (const match of table.matchAll(/^\| `(--[a-z0-9-]+)` \| .* \| (.*) \|$/gm)) rows.set(match[1] ?? '', (match[2] ?? '').trim());
  return rows;
}

describe('the documented serve options', () => {
  it('are exactly the options serve --help lists, with the same defaults', async () => {
    const help = await serveHelp();
    const documented = documentedOptions();
    assert.ok(help.length > 20, 'serve --help lists its options');
    assert.deepEqual([...documented.keys()].sort(), help.map((option) => option.flag).sort());
    for (const option of help) assert.equal(documented.get(option.flag), option.default ?? '', `default of ${option.flag}`);
  });

  it('name only real options wherever the manual mentions a limit flag', async () => {
    const flags = new Set((await serveHelp()).map((option) => option.flag));
    const text = fs.readFileSync(path.join(root, 'docs/hardening.md'), 'utf8');
    const mentioned = new Set([...text.matchAll(/`(--(?:max|inbox|auth|log|request|import)-[a-z0-9-]+)/g)].map((match) => match[1] ?? ''));
    assert.ok(mentioned.size > 5, 'the hardening page names its flags');
    assert.deepEqual(
      [...mentioned].filter((flag) => !flags.has(flag)),
      [],
    );
  });
});
