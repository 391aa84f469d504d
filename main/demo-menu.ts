import type { DemoResetResult } from '../server/demo/schemas.ts';
import { DEMO_EVENT_INTERVAL_MS, startDemoEvents } from '../server/demo/event-stream.ts';
import { ServiceClient, ServiceError } from '../server/remote/service-client.ts';
import type { DesktopServer } from './desktop-server.ts';
import type { DesktopElectron, WindowLike } from './electron-api.ts';

export interface DemoMenuContext {
  electron: Pick<DesktopElectron, 'dialog'>;
  window(): WindowLike | undefined;
  server(): DesktopServer | undefined;
  log(message: string): void;
  /** The menu shows `busy` and `eventsRunning`: called whenever they change. */
  changed(): void;
  eventIntervalMs?: number;
}

export interface DemoMenu {
  /** Demo > Reset Demo Data…: asks first, then POST /api/demo/reset, then reloads the window and says what it did. */
  resetDemoData(): Promise<void>;
  /** Demo > Simulated Events: starts or stops a check-in, check-out or delivery every few seconds. */
  toggleEvents(): Promise<void>;
  busy(): boolean;
  eventsRunning(): boolean;
  /** Stops the events (before the server closes). */
  stop(): Promise<void>;
}

export const RESET_CONFIRM_DETAIL =
  "This deletes the organization's QR codes and tags, appointments, import tasks with their excluded rows, webhooks with their " +
  'deliveries, inboxes with their messages, service confirmations, import handlers and services. Then it adds the demo data again: ' +
  'the demo services, 300 sites, a week of appointments, and an inbox with a webhook. API keys and settings stay.';

/** The plain message of a failed call: the API's own error message when it gave one. */
function reasonOf(error: unknown): string {
  if (error instanceof ServiceError && error.body) {
    try {
      const body = JSON.parse(error.body) as { error?: { message?: string } };
      if (body.error?.message) return body.error.message;
    } catch {
      // not JSON: the client's own message says what happened
    }
  }
  return error instanceof Error ? error.message : String(error);
}

function describeResult(result: DemoResetResult): string {
  const { deleted, seeded } = result;
  const removed = `Deleted: ${deleted.qrcodes} QR codes, ${deleted.appointments} appointments, ${deleted.tasks} tasks, ${deleted.webhooks} webhooks, ${deleted.inboxes} inboxes.`;
  if (!seeded.seeded) return `${removed}\nNo demo data was added: ${seeded.reason ?? 'the organization already had data again'}.`;
  return (
    `${removed}\nAdded: ${seeded.sites} sites (${seeded.excluded_sites} rows excluded), ${seeded.appointments} appointments over the next 7 days ` +
    `(${seeded.excluded_appointments} rows excluded), the demo services, a webhook to the inbox ${seeded.inbox_url} (one message with a broken signature) ` +
    `and one to the flaky app ${seeded.flaky_inbox_url ?? ''}.`
  );
}

/** The Demo menu's actions, on the app's own server, acting with the data folder's admin key. */
export function createDemoMenu(ctx: DemoMenuContext): DemoMenu {
  let busy = false;
  let events: ReturnType<typeof startDemoEvents> | undefined;
  const { dialog } = ctx.electron;

  const connection = () => {
    const server = ctx.server();
    if (!server?.credentials) return undefined;
    const { api_key, api_secret, organization_uuid } = server.credentials;
    return {
      client: new ServiceClient({ baseUrl: server.url, apiKey: api_key, apiSecret: api_secret }, 120_000),
      organizationUuid: organization_uuid,
    };
  };
  const setBusy = (value: boolean) => {
    busy = value;
    ctx.changed();
  };

  return {
    busy: () => busy,
    eventsRunning: () => events !== undefined,

    async resetDemoData() {
      const window = ctx.window();
      const target = connection();
      if (busy || !window || window.isDestroyed()) return;
      if (!target) {
        dialog.showErrorBox('Cannot reset the demo data', 'The data folder has no credentials.json of its demo organization.');
        return;
      }
      const answer = await dialog.showMessageBox(window, {
        type: 'warning',
        title: 'Reset demo data',
        message: 'Reset the demo data?',
        detail: RESET_CONFIRM_DETAIL,
        buttons: ['Cancel', 'Reset Demo Data'],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
      });
      if (answer.response !== 1) return;
      setBusy(true);
      let result: DemoResetResult;
      try {
        result = await target.client.json<DemoResetResult>('/api/demo/reset', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ organization_uuid: target.organizationUuid }),
        });
      } catch (error) {
        dialog.showErrorBox('Cannot reset the demo data', reasonOf(error));
        return;
      } finally {
        setBusy(false);
      }
      ctx.log(`demo data reset: ${result.seeded.sites ?? 0} sites, ${result.seeded.appointments ?? 0} appointments`);
      if (!window.isDestroyed()) {
        window.webContents.reload();
        await dialog.showMessageBox(window, {
          type: 'info',
          title: 'Demo data ready',
          message: 'The demo data is ready.',
          detail: describeResult(result),
          buttons: ['OK'],
          noLink: true,
        });
      }
    },

    async toggleEvents() {
      if (events) {
        const running = events;
        events = undefined;
        ctx.changed();
        await running.stop();
        return;
      }
      const target = connection();
      if (!target) {
        dialog.showErrorBox('Cannot start simulated events', 'The data folder has no credentials.json of its demo organization.');
        return;
      }
      events = startDemoEvents(
        target.client,
        target.organizationUuid,
        { warn: (details, message) => ctx.log(`${message}: ${reasonOf((details as { err?: unknown }).err)}`) },
        ctx.eventIntervalMs ?? DEMO_EVENT_INTERVAL_MS,
      );
      ctx.changed();
    },

    async stop() {
      const running = events;
      events = undefined;
      await running?.stop();
    },
  };
}
