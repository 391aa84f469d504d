import fs from 'node:fs';
import { after, before } from 'node:test';
import { startTestServer, type TestServer, tempDataDir } from './server.ts';

/**
 * A test server for the enclosing describe: started in its before hook (by `start`, default
 * startTestServer) and stopped in its after hook. The answer stands for that server in the suite's
 * hooks and tests; reading it before the suite started throws.
 */
export function suiteServer(start: () => Promise<TestServer> = () => startTestServer()): TestServer {
  let running: TestServer | undefined;
  before(async () => {
    running = await start();
  });
  after(() => running?.stop());
  return lateBound("the suite's test server", () => running);
}

/**
 * Stands for the object `current` answers once a before hook has made it, so a describe can name
 * it where it declares its helpers; reading it earlier throws, naming `what`.
 */
export function lateBound<T extends object>(what: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const target = current();
      if (!target) throw new Error(`${what} was read (${String(key)}) before its before hook made it`);
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Makes fresh temp data dirs for the enclosing describe (or file), all removed in its after hook. */
export function suiteTempDirs(): () => string {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = tempDataDir();
    dirs.push(dir);
    return dir;
  };
}
