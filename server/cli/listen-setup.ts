/**
 * What `qr-sandbox listen` registers, kept across runs: per forward URL one inbox (found again by
 * its name and forward_to) and one webhook to it, whose secret stays the same from run to run. A
 * run activates the webhook and pauses it when it stops; --cleanup removes them.
 */
import type { ServiceClient } from '../remote/service-client.ts';
import type { RetryScheduleName } from '../webhooks/retry-schedule.ts';
import type { EventType } from '../webhook-events/registry.ts';
import { call } from './client-command.ts';

/** The name of the inboxes listen makes; listen and wait find them by this name. */
export const LISTEN_INBOX_NAME = 'qr-sandbox listen';

interface Page<T> {
  items: T[];
  pages: number;
}

export interface ListenInbox {
  uuid: string;
  name: string;
  url: string;
  forward_to: string | null;
  forward_answers: boolean;
}

interface Webhook {
  uuid: string;
  url: string;
  events: EventType[];
  is_active: boolean;
  retry_schedule?: unknown;
}

export interface Listening {
  inbox: ListenInbox;
  webhook: Webhook & { secret: string };
  /** Made by this run (nothing to reuse). */
  created: boolean;
}

export interface ListenWanted {
  events: EventType[];
  forwardTo: string | null;
  /** The secret to use (--secret or QR_SANDBOX_WEBHOOK_SECRET); null keeps the one there is, or generates one. */
  secret: string | null;
  retrySchedule: RetryScheduleName | null;
  /** false: register or update, but leave the webhook paused (--print-secret). */
  activate: boolean;
}

async function listAll<T>(client: ServiceClient, pathname: string, organizationUuid: string): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await call<Page<T>>(
      client,
      `${pathname}?organization_uuid=${encodeURIComponent(organizationUuid)}&per_page=100&page=${page}`,
    );
    all.push(...answer.items);
    if (page >= answer.pages) return all;
  }
}

/** Every inbox listen made in the organization (one per forward URL). */
export async function listenInboxes(client: ServiceClient, organizationUuid: string): Promise<ListenInbox[]> {
  const inboxes = await listAll<ListenInbox>(client, '/api/inboxes', organizationUuid);
  return inboxes.filter((inbox) => inbox.name === LISTEN_INBOX_NAME);
}

/** The listen inbox to wait on: the one of a running listen (its webhook active) first. */
export async function findListenInbox(client: ServiceClient, organizationUuid: string): Promise<ListenInbox | undefined> {
  const inboxes = await listenInboxes(client, organizationUuid);
  if (inboxes.length <= 1) return inboxes[0];
  const webhooks = await listAll<Webhook>(client, '/api/webhooks', organizationUuid);
  return inboxes.find((inbox) => webhooks.some((w) => w.url === inbox.url && w.is_active)) ?? inboxes[0];
}

async function listenInbox(client: ServiceClient, organizationUuid: string, forwardTo: string | null): Promise<ListenInbox> {
  const existing = (await listenInboxes(client, organizationUuid)).find((inbox) => inbox.forward_to === forwardTo);
  if (!existing) {
    return call<ListenInbox>(client, '/api/inboxes', {
      method: 'POST',
      json: { organization_uuid: organizationUuid, name: LISTEN_INBOX_NAME, forward_to: forwardTo, forward_answers: forwardTo !== null },
    });
  }
  if (forwardTo !== null && !existing.forward_answers) {
    return call<ListenInbox>(client, `/api/inboxes/uuid/${existing.uuid}`, { method: 'PATCH', json: { forward_answers: true } });
  }
  return existing;
}

const sameEvents = (a: EventType[], b: EventType[]) => a.length === b.length && a.every((e) => b.includes(e));

/** Finds or makes this forward URL's inbox and webhook, and brings the webhook to what is wanted. */
export async function setUpListening(client: ServiceClient, organizationUuid: string, wanted: ListenWanted): Promise<Listening> {
  const inbox = await listenInbox(client, organizationUuid, wanted.forwardTo);
  const found = (await listAll<Webhook>(client, '/api/webhooks', organizationUuid)).find((w) => w.url === inbox.url);
  if (!found) {
    const webhook = await call<Webhook & { secret: string }>(client, '/api/webhooks/register', {
      method: 'POST',
      json: {
        organization_uuid: organizationUuid,
        url: inbox.url,
        events: wanted.events,
        is_active: wanted.activate,
        ...(wanted.secret ? { secret: wanted.secret } : {}),
        ...(wanted.retrySchedule ? { retry_schedule: wanted.retrySchedule } : {}),
      },
    });
    return { inbox, webhook, created: true };
  }
  const current = await call<Webhook & { secret: string }>(client, `/api/webhooks/uuid/${found.uuid}?include_secret=true`);
  const change = {
    ...(sameEvents(current.events, wanted.events) ? {} : { events: wanted.events }),
    ...(wanted.activate && !current.is_active ? { is_active: true } : {}),
    ...(wanted.secret && wanted.secret !== current.secret ? { secret: wanted.secret } : {}),
    ...(wanted.retrySchedule && wanted.retrySchedule !== current.retry_schedule ? { retry_schedule: wanted.retrySchedule } : {}),
  };
  if (Object.keys(change).length > 0) await call(client, `/api/webhooks/uuid/${found.uuid}`, { method: 'PATCH', json: change });
  return {
    inbox,
    webhook: { ...current, ...change, secret: wanted.secret ?? current.secret },
    created: false,
  };
}

/** Messages of an earlier run would count for `wait`: a run starts with an empty inbox. */
export async function emptyInbox(client: ServiceClient, inbox: ListenInbox): Promise<void> {
  await call(client, `/api/inboxes/uuid/${inbox.uuid}/messages`, { method: 'DELETE' });
}

/** The secret of this forward URL's webhook as it is, changing nothing (a running listen uses it); undefined when there is none. */
export async function currentSecret(
  client: ServiceClient,
  organizationUuid: string,
  forwardTo: string | null,
): Promise<Listening['webhook'] | undefined> {
  const inbox = (await listenInboxes(client, organizationUuid)).find((i) => i.forward_to === forwardTo);
  const found = inbox && (await listAll<Webhook>(client, '/api/webhooks', organizationUuid)).find((w) => w.url === inbox.url);
  if (!found) return undefined;
  return call<Webhook & { secret: string }>(client, `/api/webhooks/uuid/${found.uuid}?include_secret=true`);
}

/**
 * When listen stops: its webhook is paused (kept with its secret, its pending retries stopped), so
 * nothing is delivered while no listen runs (one runs per forward URL: listen-lock.ts). Says what it did.
 */
export async function pause(client: ServiceClient, listening: Listening): Promise<string> {
  try {
    await call(client, `/api/webhooks/uuid/${listening.webhook.uuid}`, { method: 'PATCH', json: { is_active: false } });
  } catch (error) {
    return `Could not pause webhook ${listening.webhook.uuid}: ${(error as Error).message}`;
  }
  return `Paused webhook ${listening.webhook.uuid}; it keeps its secret for the next listen (remove it with: qr-sandbox listen --cleanup).`;
}

/** Deletes every inbox listen made and the webhooks to them; returns what it removed. */
export async function cleanUp(client: ServiceClient, organizationUuid: string): Promise<string[]> {
  const inboxes = await listenInboxes(client, organizationUuid);
  const webhooks = await listAll<Webhook>(client, '/api/webhooks', organizationUuid);
  const removed: string[] = [];
  for (const inbox of inboxes) {
    for (const webhook of webhooks.filter((w) => w.url === inbox.url)) {
      await call(client, `/api/webhooks/uuid/${webhook.uuid}`, { method: 'DELETE' });
      removed.push(`webhook ${webhook.uuid}`);
    }
    await call(client, `/api/inboxes/uuid/${inbox.uuid}`, { method: 'DELETE' });
    removed.push(`inbox ${inbox.uuid}${inbox.forward_to ? ` (-> ${inbox.forward_to})` : ''}`);
  }
  return removed;
}
