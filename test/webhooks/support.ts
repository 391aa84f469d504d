import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, type ServeOptions } from '../../server/server.ts';
import { bearer, tempDataDir, type TestServer } from '../support/server.ts';

/** Like startTestServer, with the webhook options of ServeOptions. */
export async function startWebhookServer(options: { dataDir?: string } & Pick<ServeOptions, 'webhookRetrySchedule' | 'webhookTimeoutMs'> = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const running = await startServer({ dataDir, port: 0, logLevel: 'debug', webhookRetrySchedule: options.webhookRetrySchedule, webhookTimeoutMs: options.webhookTimeoutMs });
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

export interface ReceivedRequest {
  path: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering. */
  delayMs?: number;
}

/** A real HTTP receiver on 127.0.0.1 that records every request and answers as `respond` says. */
export async function startReceiver(respond: (request: ReceivedRequest, index: number) => Answer = () => ({ status: 200, body: 'ok' })) {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const index = received.length;
      received.push(request);
      const answer = respond(request, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls until `check` returns a value other than undefined; fails after `limitMs` with `what`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, limitMs = 20_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
