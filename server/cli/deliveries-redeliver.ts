import { StartupError } from '../startup-error.ts';
import type { BulkRedeliverResult } from '../webhooks/bulk-delivery-schemas.ts';
import { callApiFor } from './api-call.ts';
import { dataDirHelp, type Command } from './command.ts';
import { clientOptions } from './client-command.ts';
import { connectionHelp, organizationOf, resolveTarget } from './connection.ts';
import { deliveryFilterHelp, deliveryFilterOptions, deliveryFilters } from './delivery-filters.ts';

export const deliveriesRedeliverCommand: Command = {
  name: 'deliveries redeliver',
  summary: 'Send failed webhook deliveries again, in bulk (up to 1,000 a run, oldest first).',
  usage:
    'deliveries redeliver --failed [--since TIME] [--webhook UUID] [--json] [--data-dir DIR | --profile NAME | --url URL --key KEY:SECRET]\n\n' +
    'Each failed delivery is sent again as the single redeliver does: the same delivery id, the next attempt number, a fresh\n' +
    'retry schedule. Deliveries of inactive or deleted webhooks are skipped. When more than 1,000 match, run it again.\n\n' +
    'Examples:\n' +
    '  qr-sandbox deliveries redeliver --failed --since 2h\n' +
    '  qr-sandbox deliveries redeliver --failed --webhook 0193… --json\n\n' +
    'Exit codes: 0 done (even if none matched), 2 an error (a bad option, the server not reached or refusing: a viewer key gets 403).',
  options: {
    failed: { type: 'boolean' },
    ...deliveryFilterOptions,
    ...clientOptions,
  },
  help: {
    failed: 'Required: redeliver the failed deliveries (the only kind sent again in bulk)',
    ...deliveryFilterHelp,
    json: 'Print the answer as one JSON object: redelivered, delivery_ids, skipped, remaining, cap',
    ...connectionHelp,
    ...dataDirHelp,
  },
  async run(values) {
    if (values.failed !== true)
      throw new StartupError('deliveries redeliver needs --failed (only failed deliveries are sent again in bulk).');
    const filters = deliveryFilters(values);
    const target = await resolveTarget(values);
    const body = { organization_uuid: await organizationOf(target), failed: true, ...filters };
    const result = await callApiFor<BulkRedeliverResult>(target, '/api/webhooks/deliveries/redeliver', { method: 'POST', body });
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    }
    const lines = [`Redelivered ${result.redelivered} failed ${result.redelivered === 1 ? 'delivery' : 'deliveries'}.`];
    if (result.skipped > 0) lines.push(`Skipped ${result.skipped}: their webhook is inactive or deleted (activate it first).`);
    if (result.remaining > 0) lines.push(`${result.remaining} more match (at most ${result.cap} a run): run the command again.`);
    if (result.redelivered > 0) lines.push('Follow them with: qr-sandbox deliveries list --status pending');
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  },
};
