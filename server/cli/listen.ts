import { StartupError } from '../startup-error.ts';
import { eventTypes, type EventType } from '../webhooks/events.ts';
import type { Command } from './command.ts';
import { clientHelp, clientOptions } from './client-command.ts';
import { EXIT } from './exit-codes.ts';
import { organizationOf, resolveTarget } from './connection.ts';
import { inboxPrinter, printReady } from './listen-output.ts';
import { setUpListening, tearDown, type Listening } from './listen-setup.ts';
import { openLiveStream } from './live-stream.ts';
import { toEventType } from './record-event.ts';

function parseEvents(given: unknown): EventType[] {
  if (typeof given !== 'string') return [...eventTypes];
  const names = given
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new StartupError('--events needs at least one event, e.g. --events check_in,check_out');
  return [...new Set(names.map(toEventType))];
}

function checkForwardUrl(given: unknown): string | null {
  if (typeof given !== 'string') return null;
  try {
    const url = new URL(given);
    if (url.protocol === 'http:' || url.protocol === 'https:') return given;
  } catch {
    // said below
  }
  throw new StartupError(
    `--forward-to must be the http(s) URL of your app's webhook endpoint, e.g. http://localhost:3000/webhooks, not "${given}".`,
  );
}

/** Resolves with the signal's name on Ctrl+C or SIGTERM. */
function stopSignal(): { stopped: Promise<string>; dispose(): void } {
  let dispose = () => {};
  const stopped = new Promise<string>((resolve) => {
    const onInt = () => resolve('SIGINT');
    const onTerm = () => resolve('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    dispose = () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    };
  });
  return { stopped, dispose: () => dispose() };
}

export const listenCommand: Command = {
  name: 'listen',
  summary: 'Register a webhook to a local inbox, print each delivery as it arrives, optionally forward it to your app; Ctrl+C removes it.',
  usage: 'listen [--forward-to URL] [--events check_in,check_out,delivery] [--json]',
  options: { 'forward-to': { type: 'string' }, events: { type: 'string' }, ...clientOptions },
  help: {
    'forward-to': "Your app's webhook URL: each delivery is sent there as the service sends it (same headers and signed, encrypted body)",
    events: 'Events to subscribe to, comma-separated. Default all: check_in,check_out,delivery',
    ...clientHelp,
  },
  examples: [
    'qr-sandbox listen',
    'qr-sandbox listen --forward-to http://localhost:3000/webhooks --events check_in,check_out',
    'qr-sandbox listen --json | jq -c \'select(.type == "delivery") | .data.note\'',
  ],
  async run(values) {
    const events = parseEvents(values.events);
    const forwardTo = checkForwardUrl(values['forward-to']);
    const target = await resolveTarget(values);
    const organization = await organizationOf(target);
    // Caught from the start: a Ctrl+C while registering still ends in the clean-up below.
    const signal = stopSignal();
    let outcome: string | Error | null;
    let listening: Listening;
    try {
      listening = await setUpListening(target.client, organization, events, forwardTo);
      const printer = inboxPrinter(values, target.client, listening.inbox.uuid);
      const stream = await openLiveStream(target.client, printer.onLive).catch(async (error: unknown) => {
        await tearDown(target.client, listening).catch(() => undefined);
        throw error;
      });
      printReady(values, listening, events);
      outcome = await Promise.race([signal.stopped, stream.ended]);
      stream.close();
      await printer.drained();
    } finally {
      signal.dispose();
    }
    if (outcome instanceof Error) {
      process.stderr.write(
        `${outcome.message} Stopped listening; the webhook and inbox stay until a listen on a running server reuses them.\n`,
      );
      return EXIT.error;
    }
    const removed = await tearDown(target.client, listening);
    process.stderr.write(removed.length > 0 ? `Removed ${removed.join(' and ')}.\n` : 'Left the reused webhook and inbox in place.\n');
    return EXIT.ok;
  },
};
