import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The tiny test geocoder for child servers: it places the test files' suburbs and loads at once (QR_SANDBOX_GEOCODER_MODULE overrides it). */
export const TINY_GEOCODER_URL = new URL('./tiny-geocoder.ts', import.meta.url).href;

export interface ChildServer {
  url: string;
  auth: string;
  organizationUuid: string;
  child: ChildProcess;
  dataDir: string;
  request(pathname: string, init?: RequestInit): Promise<Response>;
  /** Peak resident set size of the server process so far (VmHWM), in MB. */
  peakRssMb(): number;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<number | null>;
  /** SIGKILL (kill -9) and wait for the exit. */
  kill(): Promise<void>;
}

export interface ChildServerOptions {
  /**
   * Every request on a new connection (`Connection: close`), none left idle in fetch's pool. For tests
   * that block their own process (writing a big CSV) between requests: a pooled keep-alive connection
   * the server closed meanwhile (its 5 s keep-alive timeout) fails the next upload with EPIPE or
   * ECONNRESET, and how long the block lasts depends on the machine's load.
   */
  freshConnections?: boolean;
  /** The server's limit of open files (`ulimit -n`, soft and hard), to see what it does when connections could use them up. */
  openFiles?: number;
}

/** The real server as a child process: `node bin/qr-sandbox.mjs serve --port 0 --data-dir D`. */
export async function startChildServer(
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-child-')),
  extraArgs: string[] = [],
  options: ChildServerOptions = {},
): Promise<ChildServer> {
  const serve = [process.execPath, 'bin/qr-sandbox.mjs', 'serve', '--port', '0', '--data-dir', dataDir, ...extraArgs];
  const [command = '', ...args] =
    options.openFiles === undefined ? serve : ['/bin/sh', '-c', `ulimit -n ${options.openFiles} && exec "$@"`, 'sh', ...serve];
  const child = spawn(command, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, QR_SANDBOX_GEOCODER_MODULE: process.env.QR_SANDBOX_GEOCODER_MODULE ?? TINY_GEOCODER_URL },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${output}`));
    });
  });
  const credentials = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8')) as {
    organization_uuid: string;
    api_key: string;
    api_secret: string;
  };
  const auth = `Bearer ${credentials.api_key}:${credentials.api_secret}`;
  return {
    url,
    auth,
    organizationUuid: credentials.organization_uuid,
    child,
    dataDir,
    request(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', auth);
      if (options.freshConnections) headers.set('connection', 'close');
      return fetch(`${url}${pathname}`, { ...init, headers });
    },
    peakRssMb() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      return Math.round(kb / 102.4) / 10;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
