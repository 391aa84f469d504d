/**
 * Attack 8a of bench/attacks.bench.ts (issue 38 items 3 and 4): 480 waits for inbox messages
 * (the long-poll) from 127.0.0.1 to 127.0.0.8 with five viewer keys, half of them filtering on an
 * event type that never comes, then 200 unauthenticated POSTs to the inbox, 20 at a time. Counts
 * the waits held and refused (429), times a kept-alive request of the user's while it lasts, and
 * how the held waits end. ATTACK_WAITS and ATTACK_WAIT_POSTS shrink it.
 */
import http from 'node:http';
import { percentile, round, type ChildServer } from './support.ts';

const WAITS = Number(process.env.ATTACK_WAITS ?? 480);
const POSTS = Number(process.env.ATTACK_WAIT_POSTS ?? 200);
const KEYS = 5;

function get(url: string, headers: Record<string, string>, agent: http.Agent | false, localAddress = '127.0.0.1') {
  let request: http.ClientRequest | undefined;
  const answered = new Promise<{ status: number | string; body: string }>((resolve) => {
    request = http.get(url, { agent, headers, localAddress }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? 'error', body: '' }));
  });
  return { answered, abort: () => request?.destroy() };
}

async function call(server: ChildServer, pathname: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}${pathname}`, {
    method: 'POST',
    headers: { authorization: server.auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

function tally(statuses: (number | string)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of statuses) counts[String(s)] = (counts[String(s)] ?? 0) + 1;
  return counts;
}

export async function longPolls(server: ChildServer) {
  const inbox = String((await call(server, '/api/inboxes', { organization_uuid: server.organizationUuid, name: 'long-polls' })).uuid);
  const keys: string[] = [];
  for (let i = 0; i < KEYS; i++) {
    const key = await call(server, '/api/api-keys', { role: 'viewer', name: `waits ${i}` });
    keys.push(`Bearer ${String(key.api_key)}:${String(key.api_secret)}`);
  }
  const user = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const userGet = () =>
    get(`${server.url}/api/background-tasks?organization_uuid=${server.organizationUuid}`, { authorization: server.auth }, user);
  await userGet().answered;

  const base = `${server.url}/api/inboxes/uuid/${inbox}/messages/wait?organization_uuid=${server.organizationUuid}&timeout_s=60`;
  const waits = Array.from({ length: WAITS }, (_, i) =>
    get(`${base}${i % 2 ? '&event_type=never.sent' : ''}`, { authorization: keys[i % KEYS] ?? '' }, false, `127.0.0.${(i % 8) + 1}`),
  );
  // Give the refusals time to come back before the flood.
  await Promise.all(waits.map((w) => Promise.race([w.answered, new Promise((r) => setTimeout(r, 2000))])));

  const userLatencies: number[] = [];
  const userStatuses: (number | string)[] = [];
  let flooding = true;
  const userLoop = (async () => {
    while (flooding) {
      const started = performance.now();
      userStatuses.push((await userGet().answered).status);
      userLatencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const postStatuses: (number | string)[] = [];
  let next = 0;
  const poster = async () => {
    while (next < POSTS) {
      next++;
      const res = await fetch(`${server.url}/inbox/${inbox}`, { method: 'POST', body: `{"n":${next}}` }).catch(() => null);
      postStatuses.push(res?.status ?? 'error');
      await res?.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 20 }, poster));
  flooding = false;
  await userLoop;

  // The waits for any message have answered; the others are still held: the client gives up on them.
  for (const w of waits) w.abort();
  const ends = await Promise.all(waits.map((w) => w.answered));
  user.destroy();
  const refused = ends.filter((e) => e.status === 429);
  const answeredWithMessages = ends.filter((e) => e.status === 200 && (JSON.parse(e.body) as { messages: unknown[] }).messages.length > 0);
  const stored = await fetch(`${server.url}/api/inboxes/uuid/${inbox}/messages?organization_uuid=${server.organizationUuid}&per_page=1`, {
    headers: { authorization: server.auth },
  });
  return {
    waits: WAITS,
    keys: KEYS,
    refused_429: refused.length,
    refusal_example: refused[0] ? (JSON.parse(refused[0].body) as { error: { message: string } }).error.message : null,
    // Admitted over the whole run: a slot freed by an answered wait admits one that was still queued (at most the cap at once).
    admitted: WAITS - refused.length,
    ended_by_the_client: ends.filter((e) => typeof e.status === 'string').length,
    held_answered_with_messages: answeredWithMessages.length,
    // The inbox answers an unsigned POST 400 as the service's receivers do, and stores it.
    posts_answered: tally(postStatuses),
    messages_stored: ((await stored.json()) as { total: number }).total,
    user_keep_alive: {
      statuses: tally(userStatuses),
      p50_ms: round(percentile(userLatencies, 50)),
      max_ms: round(Math.max(...userLatencies, 0)),
    },
  };
}
