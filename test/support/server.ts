import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer, type ServeOptions } from '../../server/server.ts';

export interface TestServer extends RunningServer {
  dataDir: string;
  /** "Bearer <key>:<secret>" of the demo organization's admin key. */
  auth: string;
  organizationUuid: string;
  /** fetch against the server with the admin credential unless headers say otherwise. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  /** Closes the server and removes its data dir. */
  stop(): Promise<void>;
}

export function tempDataDir(prefix = 'qr-sandbox-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function bearer(credentials: { api_key: string; api_secret: string }): string {
  return `Bearer ${credentials.api_key}:${credentials.api_secret}`;
}

/** A real server on an ephemeral loopback port with a fresh data dir. */
export async function startTestServer(options: { dataDir?: string; imports?: ServeOptions['imports'] } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const running = await startServer({ dataDir, port: 0, logLevel: 'debug', ...(options.imports ? { imports: options.imports } : {}) });
  const credentials = running.credentials;
  if (!credentials) throw new Error('test server started without demo credentials');
  const auth = bearer(credentials);
  return {
    ...running,
    dataDir,
    auth,
    organizationUuid: credentials.organization_uuid,
    request(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', auth);
      return fetch(`${running.url}${pathname}`, { ...init, headers });
    },
    async stop() {
      await running.close();
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** JSON body helper for requests. */
export function jsonBody(value: unknown, method = 'POST'): RequestInit {
  return { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}
