import { ServiceClient } from '../remote/service-client.ts';
import type { Logger } from 'pino';
import type { OrganizationCredentials } from '../orgs/organizations.ts';
import { DEMO_EVENT_INTERVAL_MS, startDemoEvents } from './event-stream.ts';
import { seedDemo, type DemoSeedResult } from './seed.ts';

export interface DemoMode {
  /** What to tell the presenter, one line each. */
  summary: string[];
  stop(): Promise<void>;
}

/** What demo mode needs of the running server: its address, the demo organization's credential and the logger. */
export interface DemoTarget {
  url: string;
  credentials: OrganizationCredentials | null;
  ctx: { logger: Logger; demo?: { intervalMs: number } };
}

/** `serve --demo`: seed an empty demo organization, then keep simulated events coming. */
export async function startDemoMode(server: DemoTarget, intervalMs = DEMO_EVENT_INTERVAL_MS): Promise<DemoMode> {
  const credentials = server.credentials;
  if (!credentials) {
    return { summary: ['Demo mode needs credentials.json of the demo organization; start on an empty --data-dir.'], stop: async () => {} };
  }
  const client = new ServiceClient({ baseUrl: server.url, apiKey: credentials.api_key, apiSecret: credentials.api_secret });
  // Set before seeding, so a browser opened at once already lands on the live screen.
  server.ctx.demo = { intervalMs };
  let events: ReturnType<typeof startDemoEvents> | undefined;
  const startEvents = () => {
    events ??= startDemoEvents(client, credentials.organization_uuid, server.ctx.logger, intervalMs);
  };
  // Events start as soon as the sites are in (step 4 imports the appointments), not after the whole seed.
  const seeded = await seedDemo(client, credentials.organization_uuid, { onStep: (step) => step.step >= 4 && startEvents() });
  startEvents();
  const summary = seeded.seeded ? describeSeed(seeded) : [`Demo data: nothing added (${seeded.reason}).`];
  summary.push(`Demo events: a simulated check-in, check-out or delivery every ${Math.round(intervalMs / 1000)} s.`);
  return {
    summary,
    stop: async () => {
      server.ctx.demo = undefined;
      await events?.stop();
    },
  };
}

function describeSeed(seeded: DemoSeedResult): string[] {
  return [
    `Demo data: a finished import of ${seeded.sites} demo sites (${seeded.excluded_sites} rows excluded), ` +
      `${seeded.appointments} appointments over the next 7 days (${seeded.excluded_appointments} rows excluded)` +
      `${seeded.services_added ? `, ${seeded.services_added} demo services` : ''},`,
    `  a webhook to the inbox ${seeded.inbox_url} (one of its messages carries a broken signature, for the decrypt doctor),`,
    `  and a webhook to the flaky app ${seeded.flaky_inbox_url}, which answers 503 to the first two attempts of each check-out.`,
  ];
}
