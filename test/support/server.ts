import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer, type ServeOptions } from '../../server/server.ts';
import { watchResponses, type Violation } from './openapi-contract.ts';

export interface TestServer extends RunningServer {
  dataDir: string;
  /** "Bearer <key>:<secret>" of the demo organization's admin key. */
  auth: string;
  organizationUuid: string;
  /** fetch against the server with the admin credential unless headers say otherwise. */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  /** Responses that disagreed with /api/openapi.json so far (see openapi-contract.ts). */
  contractViolations: Violation[];
  /** Closes the server and removes its data dir; fails when a response disagreed with the OpenAPI document. */
  stop(): Promise<void>;
}

/** Tests that are about the deadline set their own (test/hardening/upload-readers.test.ts). */
const TEST_READ_DEADLINE_MS = 60_000;

export function tempDataDir(prefix = 'qr-sandbox-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function bearer(credentials: { api_key: string; api_secret: string }): string {
  return `Bearer ${credentials.api_key}:${credentials.api_secret}`;
}

/** A real server on an ephemeral loopback port with a fresh data dir (removed at stop unless given). */
export async function startTestServer(options: Partial<ServeOptions> = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  // A test not about the upload-read deadline must not meet it on a loaded machine (CI runs files two at a time).
  const imports = { readDeadlineMs: TEST_READ_DEADLINE_MS, ...options.imports };
  const running = await startServer({ port: 0, logLevel: 'debug', ...options, imports, dataDir });
  const credentials = running.credentials;
  if (!credentials) throw new Error('test server started without demo credentials');
  const auth = bearer(credentials);
  const contractViolations: Violation[] = [];
  const doc = (await (await fetch(`${running.url}/api/openapi.json`)).json()) as Record<string, unknown>;
  watchResponses(running.httpServer, doc, contractViolations);
  return {
    ...running,
    dataDir,
    auth,
    organizationUuid: credentials.organization_uuid,
    contractViolations,
    request(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', auth);
      return fetch(`${running.url}${pathname}`, { ...init, headers });
    },
    async stop() {
      await running.close();
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (contractViolations.length > 0) {
        const lines = contractViolations.map((v) => `  ${v.request} -> ${v.status}: ${v.problem}`);
        throw new Error(`${contractViolations.length} response(s) disagree with /api/openapi.json:\n${lines.join('\n')}`);
      }
    },
  };
}

/** JSON body helper for requests. */
export function jsonBody(value: unknown, method = 'POST'): RequestInit {
  return { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}
