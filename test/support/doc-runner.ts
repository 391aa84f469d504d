/**
 * Runs a docs page's examples (doc-blocks.ts) with bash, one after the other, as a reader pasting
 * them into one terminal would: each unit is a new bash that first takes the variables, functions, the
 * folder and the last exit status the units before it left (so a variable set in one block is there in the
 * next), and leaves its own for the next. A script runs with `set -euo pipefail`: a failing command
 * or an undefined variable fails it; a console command runs as typed, its output being the check.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { DocUnit } from './doc-blocks.ts';

export interface UnitRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Stdout, and for a console command stderr too, in the order the terminal showed them. */
  output: string;
  timedOut: boolean;
}

/** Variables bash sets itself, never carried from one unit to the next. */
const SHELL_OWN =
  /^(BASH.*|_|__.*|PIPESTATUS|OLDPWD|PWD|SHLVL|LINENO|RANDOM|SECONDS|FUNCNAME|COLUMNS|LINES|OPTIND|OPTERR|EPOCH.*|SRANDOM)$/;

const driver = (stateFile: string, unitFile: string, kind: DocUnit['kind']) => `
declare -A __known
for __v in $(compgen -v) $(compgen -A function); do __known[$__v]=1; done
__last=0
[ -f ${q(stateFile)} ] && source ${q(stateFile)}
__save() {
  {
    for __v in $(compgen -v); do
      [[ -z "\${__known[$__v]:-}" && ! "$__v" =~ ${SHELL_OWN.source} ]] && declare -p "$__v"
    done
    for __f in $(compgen -A function); do [[ -z "\${__known[$__f]:-}" && "$__f" != __* ]] && declare -f "$__f"; done
    printf 'cd %q\\n__last=%d\\n' "$PWD" "$1"
  } > ${q(stateFile)}.new && mv ${q(stateFile)}.new ${q(stateFile)}
}
(exit "$__last")
${kind === 'script' ? 'set -euo pipefail' : ''}
source ${q(unitFile)}${kind === 'command' ? ' 2>&1' : ''}
__rc=$?
set +euo pipefail
__save "$__rc"
exit "$__rc"
`;

function q(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

export interface RunnerOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stateFile: string;
  timeoutMs: number;
}

/** Runs one unit in bash; the code is run as given (the caller has put the server's address in). */
export function runUnit(unit: DocUnit, code: string, options: RunnerOptions): Promise<UnitRun> {
  const unitFile = `${options.stateFile}.unit.sh`;
  fs.writeFileSync(unitFile, `${code}\n`);
  const driverFile = `${options.stateFile}.driver.sh`;
  fs.writeFileSync(driverFile, driver(options.stateFile, unitFile, unit.kind));
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', driverFile], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      output += d.toString();
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The unit's whole process group: a command it started in the background goes too.
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ code: exitCode, stdout, stderr, output, timedOut });
    });
  });
}

/** A fresh page: no variables, no last status, the working folder as given. */
export function resetState(stateFile: string): void {
  for (const file of [stateFile, `${stateFile}.new`]) fs.rmSync(file, { force: true });
  fs.mkdirSync(path.dirname(stateFile), { recursive: true });
}
