import { StartupError } from '../startup-error.ts';
import type { Delivery } from '../webhooks/schemas.ts';
import { callApiFor, organizationOf, printTable, sinceTime } from './api-call.ts';
import { dataDirHelp, dataDirOption, type Command } from './command.ts';
import { connectionHelp, connectionOptions, resolveTarget } from './connection.ts';

const STATUSES = ['failed', 'pending', 'delivered'];
const PAGE = 100;

interface DeliveryPage {
  items: Delivery[];
  total: number;
}

function lastAttempt(delivery: Delivery): string {
  const last = delivery.attempts.at(-1);
  if (!last) return '-';
  const answer = last.status_code === null ? (last.error ?? 'no answer') : String(last.status_code);
  return `#${last.attempt} ${answer}${last.duration_ms === null ? '' : ` ${last.duration_ms} ms`}`;
}

export const deliveriesListCommand: Command = {
  name: 'deliveries list',
  summary: "List webhook deliveries across all the organization's webhooks, newest first.",
  usage:
    'deliveries list [--status failed|pending|delivered] [--since TIME] [--webhook UUID] [--limit N] [--json] [--data-dir DIR | --profile NAME | --url URL --key KEY:SECRET]\n\n' +
    'Examples:\n' +
    '  qr-sandbox deliveries list --status failed --since 1h\n' +
    '  qr-sandbox deliveries list --webhook 0193… --json | jq .delivery_id\n\n' +
    'Exit codes: 0 listed (even none), 1 an error (a bad option, the server not reached or refusing).',
  options: {
    status: { type: 'string' },
    since: { type: 'string' },
    webhook: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
    ...connectionOptions,
    ...dataDirOption,
  },
  help: {
    status: 'Only deliveries in this state: failed, pending or delivered',
    since: 'Only deliveries created since: an ISO 8601 time, or 30m, 2h, 1d back from now',
    webhook: "Only this webhook's deliveries (its uuid)",
    limit: 'At most this many, newest first. Default 50',
    json: 'One JSON object per delivery and line (for jq), with every attempt',
    ...connectionHelp,
    ...dataDirHelp,
  },
  async run(values) {
    const status = typeof values.status === 'string' ? values.status : undefined;
    if (status && !STATUSES.includes(status)) throw new StartupError(`--status must be one of ${STATUSES.join(', ')}, not "${status}".`);
    const limit = typeof values.limit === 'string' ? Number(values.limit) : 50;
    if (!Number.isInteger(limit) || limit < 1)
      throw new StartupError(`--limit must be a whole number from 1, not "${String(values.limit)}".`);
    const since = sinceTime(values.since);
    const target = await resolveTarget(values);
    const query = new URLSearchParams({ organization_uuid: await organizationOf(target) });
    if (status) query.set('status', status);
    if (since) query.set('since', since);
    if (typeof values.webhook === 'string') query.set('webhook_uuid', values.webhook);

    const found: Delivery[] = [];
    let total = 0;
    for (let page = 1; found.length < limit; page++) {
      query.set('page', String(page));
      query.set('per_page', String(Math.min(PAGE, limit - found.length)));
      const answer = await callApiFor<DeliveryPage>(target, `/api/webhooks/deliveries?${query}`);
      total = answer.total;
      found.push(...answer.items);
      if (answer.items.length === 0 || found.length >= total) break;
    }
    if (values.json) {
      for (const delivery of found) process.stdout.write(`${JSON.stringify(delivery)}\n`);
      return 0;
    }
    if (found.length === 0) {
      process.stderr.write('No deliveries match.\n');
      return 0;
    }
    printTable(
      ['CREATED', 'DELIVERY ID', 'EVENT', 'WEBHOOK', 'STATUS', 'LAST ATTEMPT'],
      found.map((d) => [d.created_on.replace(/\.\d+Z$/, 'Z'), d.delivery_id, d.event_type, d.webhook_uuid, d.status, lastAttempt(d)]),
    );
    if (total > found.length)
      process.stderr.write(`Showing ${found.length} of ${total}; raise --limit or narrow with --status, --since or --webhook.\n`);
    return 0;
  },
};
