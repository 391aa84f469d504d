import { StartupError } from '../startup-error.ts';
import type { Delivery } from '../webhooks/schemas.ts';
import { callApiFor, printList } from './api-call.ts';
import { dataDirHelp, type Command } from './command.ts';
import { clientOptions } from './client-command.ts';
import { connectionHelp, organizationOf, resolveTarget } from './connection.ts';
import { deliveryFilterHelp, deliveryFilterOptions, deliveryFilters } from './delivery-filters.ts';

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
    'Exit codes: 0 listed (even none), 2 an error (a bad option, the server not reached or refusing).',
  options: {
    status: { type: 'string' },
    ...deliveryFilterOptions,
    limit: { type: 'string' },
    ...clientOptions,
  },
  help: {
    status: 'Only deliveries in this state: failed, pending or delivered',
    ...deliveryFilterHelp,
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
    const filters = deliveryFilters(values);
    const target = await resolveTarget(values);
    const query = new URLSearchParams({ organization_uuid: await organizationOf(target), ...(status ? { status } : {}), ...filters });

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
    printList(found, values.json, 'No deliveries match.', {
      headers: ['CREATED', 'DELIVERY ID', 'EVENT', 'WEBHOOK', 'STATUS', 'LAST ATTEMPT'],
      row: (d) => [d.created_on.replace(/\.\d+Z$/, 'Z'), d.delivery_id, d.event_type, d.webhook_uuid, d.status, lastAttempt(d)],
    });
    if (!values.json && found.length > 0 && total > found.length)
      process.stderr.write(`Showing ${found.length} of ${total}; raise --limit or narrow with --status, --since or --webhook.\n`);
    return 0;
  },
};
