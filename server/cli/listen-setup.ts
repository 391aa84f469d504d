/** What `qr-sandbox listen` registers: its inbox (found again by name) and a webhook to it, and how it takes them down. */
import type { ServiceClient } from '../remote/service-client.ts';
import type { EventType } from '../webhooks/events.ts';
import { call } from './client-command.ts';

/** The name of the inbox listen makes; listen and wait find it by this name. */
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
}

interface Webhook {
  uuid: string;
  url: string;
  events: EventType[];
  is_active: boolean;
}

export interface Listening {
  inbox: ListenInbox;
  webhook: Webhook & { secret: string };
  createdInbox: boolean;
  createdWebhook: boolean;
  /** The inbox's forward_to before listen changed it (a reused inbox). */
  previousForwardTo: string | null;
}

async function findAll<T>(
  client: ServiceClient,
  pathname: string,
  organizationUuid: string,
  wanted: (item: T) => boolean,
): Promise<T | undefined> {
  for (let page = 1; ; page++) {
    const answer = await call<Page<T>>(
      client,
      `${pathname}?organization_uuid=${encodeURIComponent(organizationUuid)}&per_page=100&page=${page}`,
    );
    const found = answer.items.find(wanted);
    if (found || page >= answer.pages) return found;
  }
}

/** The inbox listen made before (a listen still running, or one that could not clean up), if there is one. */
export function findListenInbox(client: ServiceClient, organizationUuid: string): Promise<ListenInbox | undefined> {
  return findAll<ListenInbox>(client, '/api/inboxes', organizationUuid, (inbox) => inbox.name === LISTEN_INBOX_NAME);
}

export async function setUpListening(
  client: ServiceClient,
  organizationUuid: string,
  events: EventType[],
  forwardTo: string | null,
): Promise<Listening> {
  const existing = await findListenInbox(client, organizationUuid);
  let inbox: ListenInbox;
  if (existing) {
    // Messages of an earlier session would count for `wait`: this session starts empty.
    await call(client, `/api/inboxes/uuid/${existing.uuid}/messages`, { method: 'DELETE' });
    inbox =
      existing.forward_to === forwardTo
        ? existing
        : await call<ListenInbox>(client, `/api/inboxes/uuid/${existing.uuid}`, { method: 'PATCH', json: { forward_to: forwardTo } });
  } else {
    inbox = await call<ListenInbox>(client, '/api/inboxes', {
      method: 'POST',
      json: { organization_uuid: organizationUuid, name: LISTEN_INBOX_NAME, forward_to: forwardTo },
    });
  }
  const base = { inbox, createdInbox: !existing, previousForwardTo: existing?.forward_to ?? null };
  try {
    const found = await findAll<Webhook>(client, '/api/webhooks', organizationUuid, (webhook) => webhook.url === inbox.url);
    if (!found) {
      const webhook = await call<Webhook & { secret: string }>(client, '/api/webhooks/register', {
        method: 'POST',
        json: { organization_uuid: organizationUuid, url: inbox.url, events },
      });
      return { ...base, webhook, createdWebhook: true };
    }
    const sameEvents = found.events.length === events.length && events.every((e) => found.events.includes(e));
    if (!sameEvents || !found.is_active) {
      await call(client, `/api/webhooks/uuid/${found.uuid}`, { method: 'PATCH', json: { events, is_active: true } });
    }
    const webhook = await call<Webhook & { secret: string }>(client, `/api/webhooks/uuid/${found.uuid}?include_secret=true`);
    return { ...base, webhook, createdWebhook: false };
  } catch (error) {
    if (base.createdInbox) await call(client, `/api/inboxes/uuid/${inbox.uuid}`, { method: 'DELETE' }).catch(() => undefined);
    throw error;
  }
}

/** Removes what listen created; a reused inbox gets its forward_to back. Returns what it did, for the user. */
export async function tearDown(client: ServiceClient, listening: Listening): Promise<string[]> {
  const done: string[] = [];
  if (listening.createdWebhook) {
    await call(client, `/api/webhooks/uuid/${listening.webhook.uuid}`, { method: 'DELETE' });
    done.push(`webhook ${listening.webhook.uuid}`);
  }
  if (listening.createdInbox) {
    await call(client, `/api/inboxes/uuid/${listening.inbox.uuid}`, { method: 'DELETE' });
    done.push(`inbox ${listening.inbox.uuid}`);
  } else if (listening.inbox.forward_to !== listening.previousForwardTo) {
    await call(client, `/api/inboxes/uuid/${listening.inbox.uuid}`, { method: 'PATCH', json: { forward_to: listening.previousForwardTo } });
  }
  return done;
}
