/**
 * Attack 7b of bench/attacks.bench.ts: one organization's two webhooks point at a host that accepts
 * connections and never answers, and it keeps sending events; another organization's deliveries
 * to a receiver that answers at once are timed from the POST that queued them to their arrival:
 * a burst of 20 with no hanging receiver (after one to warm up), the same burst with them, then a
 * steady trickle of 15, one every 2 s, with the pending ones counted when all arrived or after 60 s.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { percentile, round, type ChildServer } from './support.ts';

const BURST = 20;
const TRICKLE = 15;
const TRICKLE_EVERY_MS = 2000;
/** After the trickle's first event, how long before the pending ones are counted. */
const TRICKLE_WINDOW_MS = 60_000;
const STUCK_EVENTS = 40;

type Org = { uuid: string; auth: string };

async function listen(server: net.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function call(server: ChildServer, org: Org, pathname: string, body?: unknown, method = 'POST') {
  const res = await fetch(`${server.url}${pathname}`, {
    method,
    headers: { authorization: org.auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const register = async (server: ChildServer, org: Org, url: string) =>
  String(
    (
      await call(server, org, '/api/webhooks/register', {
        organization_uuid: org.uuid,
        url,
        events: ['service_confirmation.check_in'],
        sandbox_diagnostics: true,
      })
    ).uuid,
  );

async function checkIn(server: ChildServer, org: Org): Promise<string[]> {
  const answer = await call(server, org, '/api/service-confirmations/simulate', {
    organization_uuid: org.uuid,
    event: 'service_confirmation.check_in',
  });
  return (answer.deliveries as { delivery_id: string }[]).map((d) => d.delivery_id);
}

const stats = (ms: number[]) => ({
  count: ms.length,
  p50_ms: round(percentile(ms, 50), 0),
  p99_ms: round(percentile(ms, 99), 0),
  max_ms: round(Math.max(...ms, 0), 0),
});

export async function hangingReceivers(server: ChildServer) {
  const sent = new Map<string, number>();
  const arrived = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived.set(String(req.headers['x-sandbox-delivery-id']), performance.now());
      res.end('ok');
    });
  });
  const hanging = new Set<net.Socket>();
  const hangingHost = net.createServer((socket) => {
    hanging.add(socket);
    socket.resume();
    socket.on('close', () => hanging.delete(socket));
  });
  const receiverUrl = await listen(receiver);
  const hangingUrl = await listen(hangingHost);
  const bystander: Org = { uuid: server.organizationUuid, auth: server.auth };
  const created = JSON.parse(
    execFileSync(process.execPath, ['bin/qr-sandbox.mjs', 'org', 'create', '--name', 'Stuck', '--data-dir', server.dataDir], {
      encoding: 'utf8',
    }),
  ) as { organization_uuid: string; api_key: string; api_secret: string };
  const stuck: Org = { uuid: created.organization_uuid, auth: `Bearer ${created.api_key}:${created.api_secret}` };
  const webhooks: [Org, string][] = [];
  let feeding = false;
  try {
    webhooks.push([bystander, await register(server, bystander, `${receiverUrl}/bystander`)]);
    const send = async () => {
      const t0 = performance.now();
      for (const id of await checkIn(server, bystander)) sent.set(id, t0);
    };
    const latencies = (ids: string[]) => ids.filter((id) => arrived.has(id)).map((id) => (arrived.get(id) ?? 0) - (sent.get(id) ?? 0));
    const burst = async () => {
      const before = new Set(sent.keys());
      await Promise.all(Array.from({ length: BURST }, send));
      const ids = [...sent.keys()].filter((id) => !before.has(id));
      const deadline = performance.now() + 120_000;
      while (ids.some((id) => !arrived.has(id)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return { ...stats(latencies(ids)), lost: ids.filter((id) => !arrived.has(id)).length };
    };

    await burst(); // warm-up: the first connections, compiled code
    const alone = await burst();

    webhooks.push([stuck, await register(server, stuck, `${hangingUrl}/one`)], [stuck, await register(server, stuck, `${hangingUrl}/two`)]);
    for (let i = 0; i < STUCK_EVENTS; i++) await checkIn(server, stuck);
    while (hanging.size < 2) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 500));
    const hangingAtBurst = hanging.size;
    const withHanging = await burst();

    // The stuck organization keeps sending one event a second while the trickle runs.
    feeding = true;
    const feeder = (async () => {
      while (feeding) {
        await checkIn(server, stuck);
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    const trickleStart = performance.now();
    const trickleIds: string[] = [];
    for (let i = 0; i < TRICKLE; i++) {
      const before = new Set(sent.keys());
      await send();
      trickleIds.push(...[...sent.keys()].filter((id) => !before.has(id)));
      await new Promise((r) => setTimeout(r, TRICKLE_EVERY_MS));
    }
    while (performance.now() - trickleStart < TRICKLE_WINDOW_MS && trickleIds.some((id) => !arrived.has(id)))
      await new Promise((r) => setTimeout(r, 50));
    feeding = false;
    await feeder;
    const trickle = {
      ...stats(latencies(trickleIds)),
      counted_after_s: round((performance.now() - trickleStart) / 1000, 0),
      pending: trickleIds.filter((id) => !arrived.has(id)).length,
    };
    return {
      hanging_connections_at_burst: hangingAtBurst,
      burst_without_hanging: alone,
      burst_with_hanging: withHanging,
      trickle_with_hanging: trickle,
    };
  } finally {
    feeding = false;
    for (const [org, uuid] of webhooks) await call(server, org, `/api/webhooks/uuid/${uuid}`, undefined, 'DELETE').catch(() => undefined);
    for (const socket of hanging) socket.destroy();
    await new Promise((r) => hangingHost.close(r));
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  }
}
