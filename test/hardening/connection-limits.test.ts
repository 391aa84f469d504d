import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, describe, it } from 'node:test';
import { startChildServer, type ChildServer } from '../support/child-server.ts';
import { eventually } from '../support/eventually.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** Opens `count` connections from `from` that send nothing (or `send`) and stay open until the server closes them. */
async function idleSockets(url: string, count: number, from = '127.0.0.1', send?: string) {
  const { hostname, port } = new URL(url);
  const sockets: net.Socket[] = [];
  let closed = 0;
  for (let i = 0; i < count; i++) {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress: from });
    socket.on('error', () => {});
    socket.on('close', () => closed++);
    socket.on('data', () => {});
    await new Promise<void>((resolve) => {
      socket.once('connect', () => resolve());
      socket.once('close', () => resolve());
    });
    if (send) socket.write(send);
    sockets.push(socket);
  }
  return {
    open: () => count - closed,
    closed: () => closed,
    destroy: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** GET on a connection of its own (no pool): the status, or the error's code. */
function freshGet(url: string, headers: Record<string, string> = {}): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, headers, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 10 s')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('connection limits', () => {
  let child: ChildServer | undefined;
  let server: TestServer | undefined;
  after(async () => {
    await child?.stop();
    await server?.stop();
  });

  it('with 256 open files, 600 idle connections from the same address leave health and the API answering', async () => {
    child = await startChildServer(undefined, [], { openFiles: 256 });
    const idle = await idleSockets(child.url, 600);
    try {
      const answers: (number | string)[] = [];
      for (let i = 0; i < 10; i++) {
        answers.push(await freshGet(`${child.url}/api/health`));
        answers.push(
          await freshGet(`${child.url}/api/background-tasks?organization_uuid=${child.organizationUuid}`, { authorization: child.auth }),
        );
      }
      assert.deepEqual(answers, Array(20).fill(200));
      assert.ok(idle.closed() > 0, 'the server closed idle connections to make room');
    } finally {
      idle.destroy();
      await child.stop();
      child = undefined;
    }
  });

  it('a client over its cap (every loopback address is one client): its silent connections make room, the rest is closed at once', async () => {
    child = await startChildServer(undefined, ['--max-connections', '100', '--max-connections-per-address', '30']);
    const silent = await idleSockets(child.url, 100, '127.0.0.2');
    await eventually(() => silent.open() <= 30, 'at most 30 silent connections of 127.0.0.2 stay open');
    // Connections in a request (here an upload that has not ended) are not closed to make room: past the cap, new ones are.
    const uploading = await idleSockets(
      child.url,
      40,
      '127.0.0.3',
      `POST /api/qrcodes HTTP/1.1\r\nHost: ${new URL(child.url).host}\r\nAuthorization: ${child.auth}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name"',
    );
    await eventually(() => uploading.open() === 30, '30 uploading connections of 127.0.0.3 stay open, 10 are closed');
    assert.equal(silent.open(), 0, "127.0.0.3 counts with 127.0.0.2: the uploads took the silent connections' room");
    uploading.destroy();
    // The server sees the uploads' connections close a moment later.
    let health = await freshGet(`${child.url}/api/health`);
    for (let tries = 0; health !== 200 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      health = await freshGet(`${child.url}/api/health`);
    }
    assert.equal(health, 200, 'served once the uploads are gone');
    silent.destroy();
  });

  it('a connection that sends nothing, or never ends its headers or its body, is closed by the server', async () => {
    server = await startTestServer({ connections: { headersTimeoutMs: 1000, requestTimeoutMs: 5_000 } });
    const silent = await idleSockets(server.url, 1);
    const slowHeaders = await idleSockets(server.url, 1, '127.0.0.1', 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const stalledBody = await idleSockets(
      server.url,
      1,
      '127.0.0.1',
      `POST /api/api-keys HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nAuthorization: ${server.auth}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"role"',
    );
    await eventually(() => silent.closed() === 1, 'the silent connection is closed');
    await eventually(() => slowHeaders.closed() === 1, 'the connection whose headers never end is closed');
    await eventually(() => stalledBody.closed() === 1, 'the connection whose body never ends is closed');
  });

  it('a body sent slowly, for longer than the headers timeout, is received whole', async () => {
    server ??= await startTestServer({ connections: { headersTimeoutMs: 1000, requestTimeoutMs: 5_000 } });
    const body = JSON.stringify({ role: 'viewer', name: 'slow upload' });
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server?.url}/api/api-keys`, {
        method: 'POST',
        agent: false,
        headers: { authorization: server?.auth ?? '', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      let sent = 0;
      const step = Math.ceil(body.length / 10);
      const timer = setInterval(() => {
        req.write(body.slice(sent, sent + step));
        sent += step;
        if (sent >= body.length) {
          clearInterval(timer);
          req.end();
        }
      }, 250);
    });
    assert.equal(status, 201);
  });
});
