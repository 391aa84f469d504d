import { StartupError } from '../startup-error.ts';
import { eventTypes, type EventType, serviceEventTypes, shortNameOf } from '../webhook-events/registry.ts';
import { retryScheduleNames, type RetryScheduleName } from '../webhooks/retry-schedule.ts';
import { resolveDataDir, type Command, type Values } from './command.ts';
import { clientHelp, clientOptions, emit } from './client-command.ts';
import { EXIT } from './exit-codes.ts';
import { organizationOf, resolveTarget, type Target } from './connection.ts';
import { attemptPrinter, printReady } from './listen-output.ts';
import { lockListen, refuseWhileListening, tryLockListen } from './listen-lock.ts';
import { cleanUp, currentSecret, emptyInbox, pause, setUpListening, type Listening, type ListenWanted } from './listen-setup.ts';
import { openLiveStream } from './live-stream.ts';
import { toEventType } from './record-event.ts';
import { stopSignal } from './stop-signals.ts';

const sandboxEventsHelp = eventTypes
  .filter((type) => !serviceEventTypes.includes(type))
  .map((type) => ` (QR Sandbox's own, only when listed: ${shortNameOf(type)})`)
  .join('');

/** The variable that gives listen the webhook secret (as --secret does), so CI can give the app the same one. */
export const SECRET_ENV = 'QR_SANDBOX_WEBHOOK_SECRET';

function parseEvents(given: unknown): EventType[] {
  if (typeof given !== 'string') return [...serviceEventTypes];
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

function parseSecret(values: Values): string | null {
  const given = typeof values.secret === 'string' ? values.secret : process.env[SECRET_ENV] || undefined;
  if (given === undefined) return null;
  if (!/^[\x21-\x7e]{8,512}$/.test(given)) {
    const from = typeof values.secret === 'string' ? '--secret' : `$${SECRET_ENV}`;
    throw new StartupError(`${from} must be 8 to 512 printable ASCII characters without spaces.`);
  }
  return given;
}

function parseRetrySchedule(given: unknown): RetryScheduleName | null {
  if (given === undefined) return null;
  const name = retryScheduleNames.find((n) => n === given);
  if (!name) throw new StartupError(`--retry-schedule must be ${retryScheduleNames.join(' or ')}, not "${String(given)}".`);
  return name;
}

function wantedOf(values: Values, activate: boolean): ListenWanted {
  return {
    events: parseEvents(values.events),
    forwardTo: checkForwardUrl(values['forward-to']),
    secret: parseSecret(values),
    retrySchedule: parseRetrySchedule(values['retry-schedule']),
    activate,
  };
}

async function printSecret(values: Values, target: Target, organization: string): Promise<number> {
  const wanted = wantedOf(values, false);
  const lock = tryLockListen(resolveDataDir(values), organization, wanted.forwardTo);
  let webhook: Listening['webhook'] | undefined;
  try {
    if (lock) webhook = (await setUpListening(target.client, organization, wanted)).webhook;
    else {
      // A listen of this forward URL runs: its webhook is read as it is, never changed under it.
      webhook = await currentSecret(target.client, organization, wanted.forwardTo);
      if (!webhook) throw new StartupError('The running listen has no webhook yet; run this again in a moment.');
      if (wanted.secret && wanted.secret !== webhook.secret) {
        throw new StartupError(
          'A listen of this forward URL is running and signs with another secret; it is not changed under it. Stop it first, then run this again.',
        );
      }
    }
  } finally {
    lock?.release();
  }
  emit(values, { webhook_uuid: webhook.uuid, secret: webhook.secret }, webhook.secret);
  return EXIT.ok;
}

async function removeAll(values: Values, target: Target, organization: string): Promise<number> {
  refuseWhileListening(resolveDataDir(values), organization, 'listen --cleanup');
  const removed = await cleanUp(target.client, organization);
  emit(values, { removed }, removed.length > 0 ? `Removed ${removed.join(', ')}.` : 'Nothing to remove: no webhook or inbox of listen.');
  return EXIT.ok;
}

async function listen(values: Values, target: Target, organization: string): Promise<number> {
  const wanted = wantedOf(values, true);
  const lock = lockListen(resolveDataDir(values), organization, wanted.forwardTo);
  // Caught from the start: a Ctrl+C while registering still ends in the clean-up below.
  const signal = stopSignal({ followParent: true });
  let listening: Listening | null = null;
  let replaced: Promise<void> = Promise.resolve();
  let lost: Error | null = null;
  let reRegister = () => {};
  const lostRegistration = new Promise<Error>((resolve) => {
    reRegister = () => {
      replaced = replaced.then(async () => {
        try {
          listening = await setUpListening(target.client, organization, wanted);
          process.stderr.write(
            `The organization was reset or restored, which removed the webhook: registered again${
              wanted.secret ? ' with the same secret' : ` with a new secret (give --secret or $${SECRET_ENV} to keep one)`
            }.\n`,
          );
          printReady(values, listening, wanted.events);
        } catch (error) {
          lost = new Error(`The organization was reset or restored and listen could not register again: ${(error as Error).message}`);
          resolve(lost);
        }
      });
    };
  });
  try {
    listening = await setUpListening(target.client, organization, wanted);
    await emptyInbox(target.client, listening.inbox);
    const current = () => listening as Listening;
    const printer = attemptPrinter(values, target.client, organization, current, reRegister);
    const stream = await openLiveStream(target.client, printer.onLive);
    printReady(values, listening, wanted.events);
    process.stderr.write(
      `Listening for ${wanted.events.join(', ')}${listening.created ? '' : ' (the webhook and secret of earlier runs)'}. Ctrl+C stops.\n`,
    );
    const outcome = await Promise.race([signal.stopped, stream.ended, lostRegistration]);
    stream.close();
    await replaced;
    await printer.drained();
    if (outcome instanceof Error) {
      const gone = outcome === lost;
      process.stderr.write(`${outcome.message} Stopped listening.\n`);
      if (!gone) process.stderr.write(`${await pause(target.client, listening)}\n`);
      return EXIT.error;
    }
    process.stderr.write(`${await pause(target.client, listening)}\n`);
    return EXIT.ok;
  } catch (error) {
    if (listening) await pause(target.client, listening);
    throw error;
  } finally {
    signal.dispose();
    lock.release();
  }
}

export const listenCommand: Command = {
  name: 'listen',
  summary:
    "Deliver webhooks to a local inbox, print each attempt, optionally forward them to your app (whose answer is the attempt's); keeps one webhook and secret per forward URL.",
  usage:
    'listen [--forward-to URL] [--events check_in,check_out,delivery] [--secret S] [--retry-schedule fast] [--json] | --print-secret | --cleanup',
  options: {
    'forward-to': { type: 'string' },
    events: { type: 'string' },
    secret: { type: 'string' },
    'retry-schedule': { type: 'string' },
    'print-secret': { type: 'boolean' },
    cleanup: { type: 'boolean' },
    ...clientOptions,
  },
  help: {
    'forward-to':
      "Your app's webhook URL: each delivery goes there as the service sends it, and your app's answer (status, timeout, dropped connection) is the attempt's, retried on failure",
    events: `Events to subscribe to, comma-separated. Default the service's: ${serviceEventTypes.map(shortNameOf).join(',')}${sandboxEventsHelp}`,
    secret: `The webhook secret to sign with (8 to 512 printable characters), so your app can be given it beforehand. Default: $${SECRET_ENV}, else the one of earlier runs, else a new one`,
    'retry-schedule': `The webhook's retry schedule: ${retryScheduleNames.join(' or ')} (1 s, 2 s, 5 s, 10 s, 30 s). Default: the organization's setting`,
    'print-secret': 'Print the secret of the webhook for --forward-to (registering it, paused, if there is none yet) and exit',
    cleanup: 'Remove every webhook and inbox listen registered, and exit',
    ...clientHelp,
  },
  examples: [
    'qr-sandbox listen',
    'qr-sandbox listen --forward-to http://localhost:3000/webhooks --events check_in,check_out',
    'qr-sandbox listen --forward-to http://localhost:3000/webhooks --print-secret',
    'qr-sandbox listen --json | jq -c \'select(.type == "attempt") | .data.note\'',
  ],
  async run(values) {
    if (values['print-secret'] && values.cleanup) throw new StartupError('Give --print-secret or --cleanup, not both.');
    wantedOf(values, false); // checks the options before anything is asked of the server
    const target = await resolveTarget(values);
    const organization = await organizationOf(target);
    if (values['print-secret']) return printSecret(values, target, organization);
    if (values.cleanup) return removeAll(values, target, organization);
    return listen(values, target, organization);
  },
};
