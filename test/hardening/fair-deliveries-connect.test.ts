import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Delivery } from '../../server/webhooks/schemas.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';
import { waitFor } from '../webhooks/support.ts';

const LISTENER = `const s = require('node:net').createServer();
s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => process.stdout.write(s.address().port + '\\n'));`;

/**
 * A port where a TCP handshake never completes: a process listens with the smallest backlog and
 * is stopped (SIGSTOP), so it accepts nothing; once two connections fill its queue, the kernel
 * drops every further SYN, as a host behind a firewall that drops packets does.
 */
async function startUnreachablePort(): Promise<{ port: number; child: ChildProcess; fillers: net.Socket[] }> {
  const child = spawn(process.execPath, ['-e', LISTENER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = Number(
    await new Promise<string>((resolve) => child.stdout?.once('data', (data: Buffer) => resolve(data.toString().trim()))),
  );
  child.kill('SIGSTOP');
  const fillers: net.Socket[] = [];
  for (;;) {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    fillers.push(socket);
    const connected = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true));
      setTimeout(() => resolve(false), 500).unref();
    });
    if (!connected) return { port, child, fillers };
  }
}

describe('a host that never completes the TCP handshake', () => {
  const CONNECT_TIMEOUT_MS = 300;
  let server: TestServer;
  let unreachable: Awaited<ReturnType<typeof startUnreachablePort>>;
  before(async () => {
    unreachable = await startUnreachablePort();
    server = await startTestServer({ webhookRetrySchedule: 'fast', webhookTimeoutMs: 5000, webhookConnectTimeoutMs: CONNECT_TIMEOUT_MS });
  });
  after(async () => {
    await server.stop();
    for (const socket of unreachable.fillers) socket.destroy();
    unreachable.child.kill('SIGKILL');
  });

  it('fails the attempt by the connect timeout, not the whole-answer timeout', async () => {
    const org = server.organizationUuid;
    const hook = await server.request(
      '/api/webhooks/register',
      jsonBody({ organization_uuid: org, url: `http://127.0.0.1:${unreachable.port}/hook`, events: ['service_confirmation.check_in'] }),
    );
    assert.equal(hook.status, 201, await hook.clone().text());
    const webhook = ((await hook.json()) as { uuid: string }).uuid;
    const event = await server.request(
      '/api/service-confirmations/simulate',
      jsonBody({ organization_uuid: org, event: 'service_confirmation.check_in' }),
    );
    assert.equal(event.status, 201);

    const attempt = await waitFor('the first attempt to be recorded', async () => {
      const res = await server.request(`/api/webhooks/uuid/${webhook}/deliveries?organization_uuid=${org}`);
      const [delivery] = ((await res.json()) as { items: Delivery[] }).items;
      return delivery?.attempts[0];
    });
    assert.equal(attempt.status_code, null);
    assert.match(attempt.error ?? '', /^No connection within 0\.3 s \(connect timeout\)/);
  });
});
