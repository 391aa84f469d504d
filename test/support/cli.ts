import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(REPO_ROOT, 'bin', 'qr-sandbox.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  /** Resolves once stderr or stdout matches, so a test can act on what the command has shown. */
  waitFor(pattern: RegExp): Promise<void>;
  /** What it printed on stdout so far. */
  stdout(): string;
  /** Sends a signal (e.g. SIGINT, as Ctrl+C does). */
  signal(name: NodeJS.Signals): void;
  done: Promise<CliResult>;
}

export interface CliOptions {
  input?: string;
  timeoutMs?: number;
  /** Added to this process's environment. */
  env?: Record<string, string>;
}

/** Starts `qr-sandbox ARGS` as a real child process with this test's Node. */
export function startCli(args: string[], options: CliOptions = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env: { ...process.env, INIT_CWD: REPO_ROOT, ...options.env } });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; resolve: () => void }> = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(stderr) || waiter.pattern.test(stdout)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    check();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    check();
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`qr-sandbox ${args.join(' ')} did not finish\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  child.stdin.end(options.input ?? '');
  return {
    waitFor: (pattern) =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ pattern, resolve });
        check();
        done.then(() => reject(new Error(`qr-sandbox ended before printing ${pattern}:\n${stderr}`)), reject);
      }),
    stdout: () => stdout,
    signal: (name) => child.kill(name),
    done,
  };
}

/** Runs `qr-sandbox ARGS` to the end. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).done;
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `qr-sandbox serve` as a child process and waits for the line that says where it listens. */
export function spawnServe(args: string[]): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, INIT_CWD: REPO_ROOT },
    });
    let output = '';
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start:\n${output}`));
    }, 30_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      const match = /is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          child,
          url: match[1],
          output: () => output,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before it was ready:\n${output}`));
    });
  });
}
