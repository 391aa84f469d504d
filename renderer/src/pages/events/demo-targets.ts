import { useQuery } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';

/** The names `serve --demo` gives its two inboxes (server/demo/demo-webhooks.ts). */
const DEMO_INBOX = 'Demo inbox';
const FLAKY_APP = 'Flaky app';

/**
 * Where the demo's "Try next" links go: the demo inbox's page and the flaky app's webhook page,
 * found by the inboxes' names (and the webhook by the flaky inbox's URL); the lists while they load,
 * or when they were renamed or deleted.
 */
export function useDemoTargets(organizationUuid: string): { demoInbox: string; flakyWebhook: string } {
  const inboxes = useQuery(getQuery('/api/inboxes', { query: { organization_uuid: organizationUuid, per_page: 100 } }));
  const webhooks = useQuery(getQuery('/api/webhooks', { query: { organization_uuid: organizationUuid, per_page: 100 } }));
  const inbox = inboxes.data?.items.find((i) => i.name === DEMO_INBOX);
  const flaky = inboxes.data?.items.find((i) => i.name === FLAKY_APP);
  const flakyWebhook = flaky ? webhooks.data?.items.find((w) => w.url === flaky.url) : undefined;
  return {
    demoInbox: inbox ? `/inspector/${encodeURIComponent(inbox.uuid)}` : '/inspector',
    flakyWebhook: flakyWebhook ? `/webhooks/${encodeURIComponent(flakyWebhook.uuid)}` : '/webhooks',
  };
}
