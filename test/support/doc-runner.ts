/**
 * Runs a docs page's examples (doc-blocks.ts) as a reader pasting them into one terminal would:
 * one bash for the page, which runs each unit in turn, so that variables, functions, the folder,
 * `$?` and background jobs (`listen … &`, `$!`) carry from one block to the next. A script runs with
 * `set -euo pipefail` (a failing command or an undefined variable fails it, and ends the page); a
 * console command runs as typed, its output being the check. Units read no input: their stdin is
 * empty. Ending the page ends the shell and whatever it left running, as closing the terminal does.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { DocUnit } from './doc-blocks.ts';

export interface UnitRun {
  /** Exit status; null when the page's shell ended (a script failed under `set -e`) or the unit timed out. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Stdout, and for a console command stderr too, in the order the terminal showed them. */
  output: string;
  timedOut: boolean;
}

const q = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
const DONE = '__QR_DOCS_DONE__';

export class PageShell {
  private readonly shell: ChildProcessWithoutNullStreams;
  private control = '';
  private ended = false;
  private count = 0;
  private readonly waiters = new Set<() => void>();

  private readonly dir: string;

  /** A bash in cwd with env; the units' files are kept in dir. */
  constructor(dir: string, cwd: string, env: NodeJS.ProcessEnv) {
    this.dir = dir;
    fs.mkdirSync(dir, { recursive: true });
    this.shell = spawn('bash', ['--noprofile', '--norc'], { cwd, env, detached: true });
    const wake = () => {
      for (const waiter of this.waiters) waiter();
    };
    this.shell.stdout.on('data', (d: Buffer) => {
      this.control += d.toString();
      wake();
    });
    this.shell.stderr.resume();
    this.shell.on('close', () => {
      this.ended = true;
      wake();
    });
    this.shell.stdin.on('error', () => undefined); // the shell ended: the unit that ended it says why
    this.shell.stdin.write('__last=0\n');
  }

  /** Runs one unit, its code as given (the caller has put the server's address in). */
  async run(unit: DocUnit, code: string, timeoutMs: number): Promise<UnitRun> {
    const n = ++this.count;
    const file = (name: string) => path.join(this.dir, `${n}.${name}`);
    fs.writeFileSync(file('sh'), `${code}\n`);
    const redirect = unit.kind === 'script' ? `> ${q(file('out'))} 2> ${q(file('err'))}` : `> ${q(file('out'))} 2>&1`;
    const mode = unit.kind === 'script' ? 'set -euo pipefail; ' : '';
    this.shell.stdin.write(
      `{ (exit "$__last"); ${mode}source ${q(file('sh'))}; } < /dev/null ${redirect}\n__last=$?; set +euo pipefail; echo "${DONE} ${n} $__last"\n`,
    );
    const marker = new RegExp(`${DONE} ${n} (\\d+)\\n`);
    let timedOut = false;
    const code_ = await new Promise<number | null>((resolve) => {
      const check = () => {
        const match = marker.exec(this.control);
        if (match || this.ended || timedOut) {
          this.waiters.delete(check);
          clearTimeout(timer);
          resolve(match ? Number(match[1]) : null);
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        this.kill();
        check();
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
    const read = (name: string) => (fs.existsSync(file(name)) ? fs.readFileSync(file(name), 'utf8') : '');
    const stdout = read('out');
    const stderr = read('err');
    return { code: code_, stdout, stderr, output: stdout, timedOut };
  }

  /** Ends the shell and everything in its process group (what its units left running), and removes its files. */
  end(): void {
    this.kill();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private kill(): void {
    try {
      if (this.shell.pid) process.kill(-this.shell.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
