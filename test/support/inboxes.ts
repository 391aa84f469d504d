import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonBody, type TestServer } from './server.ts';

export interface InboxView {
  uuid: string;
  url: string;
  name: string;
  secret_count: number;
  secrets?: string[];
  response: { status: number | null; delay_ms: number; drop: boolean };
  forward_to: string | null;
  message_count: number;
}

export interface MessageView {
  uuid: string;
  received_on: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  body_base64: string | null;
  body_size: number;
  body_truncated: boolean;
  decrypted: boolean;
  decryption_problem: string | null;
  decryption_error: string | null;
  signature_status: 'valid' | 'invalid' | 'unknown';
  verified_with: string | null;
  hints: Array<{ code: string; field: string; message: string }>;
  delivery_id: string | null;
  attempt?: number | null;
  event_id: string | null;
  event_type: string | null;
  envelope: unknown;
  duplicate_of: string | null;
  duplicate_by: string | null;
  answer: { kind: string | null; status: number | null; after_ms: number | null; rule?: number | null };
  relays: Array<{
    uuid: string;
    kind: string;
    url: string;
    status_code: number | null;
    error: string | null;
    response_excerpt: string | null;
    duration_ms: number | null;
  }>;
}

export interface PageView<T> {
  items: T[];
  total: number;
  pages: number;
  page: number;
  per_page: number;
}

export async function createInbox(server: TestServer, fields: Record<string, unknown> = {}): Promise<InboxView> {
  const res = await server.request('/api/inboxes', jsonBody({ organization_uuid: server.organizationUuid, name: 'Test inbox', ...fields }));
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as InboxView;
}

export async function patchInbox(server: TestServer, uuid: string, fields: Record<string, unknown>): Promise<InboxView> {
  const res = await server.request(`/api/inboxes/uuid/${uuid}`, jsonBody(fields, 'PATCH'));
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as InboxView;
}

export async function listMessages(server: TestServer, inboxUuid: string, query = ''): Promise<PageView<MessageView>> {
  const res = await server.request(
    `/api/inboxes/uuid/${inboxUuid}/messages?organization_uuid=${server.organizationUuid}${query ? `&${query}` : ''}`,
  );
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as PageView<MessageView>;
}

export async function getMessage(server: TestServer, inboxUuid: string, messageUuid: string): Promise<MessageView> {
  const res = await server.request(`/api/inboxes/uuid/${inboxUuid}/messages/${messageUuid}`);
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as MessageView;
}

/** POSTs to an inbox and returns the status, the answer text and the stored message's uuid. */
export async function deliver(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
): Promise<{ status: number; text: string; messageUuid: string }> {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  const messageUuid = res.headers.get('x-inbox-message-uuid') ?? '';
  return { status: res.status, text, messageUuid };
}

export interface CapturedRequest {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

export interface CaptureServer {
  url: string;
  requests: CapturedRequest[];
  /** Resolves once `count` requests have arrived; rejects after 20 s so a missing request fails the test instead of hanging it. */
  waitFor(count: number): Promise<CapturedRequest[]>;
  close(): Promise<void>;
}

/** A capture server's answer to every request: `status` with `body`. */
export function answering(status: number, body: string): (req: CapturedRequest, res: http.ServerResponse) => void {
  return (_req, res) => {
    res.statusCode = status;
    res.end(body);
  };
}

/** A real local HTTP server standing in for the user's own app: records every request, answers with `answer`. */
export async function startCaptureServer(
  answer: (req: CapturedRequest, res: http.ServerResponse) => void = (_r, res) => res.end('{"ok":true}'),
): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  const waiters: Array<{ count: number; resolve: (r: CapturedRequest[]) => void }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const captured = { method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) };
      requests.push(captured);
      answer(captured, res);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve([...requests]);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    waitFor: (count) =>
      requests.length >= count
        ? Promise.resolve([...requests])
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`only ${requests.length} of ${count} requests arrived within 20 s`)), 20_000);
            waiters.push({
              count,
              resolve: (r) => {
                clearTimeout(timer);
                resolve(r);
              },
            });
          }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
