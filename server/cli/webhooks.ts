/** `webhooks list` and `webhooks delete`: see the organization's webhooks and remove leftovers (a listen's, a test's). */
import { StartupError } from '../startup-error.ts';
import { shortNameOf } from '../webhook-events/registry.ts';
import type { Webhook } from '../webhooks/schemas.ts';
import { callApi, callApiFor, printList } from './api-call.ts';
import { dataDirHelp, dataDirOption, type Command } from './command.ts';
import { clientOptions } from './client-command.ts';
import { connectionHelp, connectionOptions, organizationOf, resolveTarget } from './connection.ts';
import { EXIT } from './exit-codes.ts';

const EXIT_CODES = 'Exit codes: 0 done, 2 an error (a bad option, an unknown webhook, the server not reached or refusing).';

export const webhooksListCommand: Command = {
  name: 'webhooks list',
  summary: "List the organization's webhooks, newest first: uuid, active or paused, URL, events.",
  usage: `webhooks list [--json] [--data-dir DIR | --profile NAME | --url URL --key KEY:SECRET]\n\n${EXIT_CODES}`,
  options: clientOptions,
  help: { json: 'One JSON object per webhook and line (never its secret)', ...connectionHelp, ...dataDirHelp },
  async run(values) {
    const target = await resolveTarget(values);
    const organization = await organizationOf(target);
    const webhooks: Webhook[] = [];
    for (let page = 1; ; page++) {
      const answer = await callApiFor<{ items: Webhook[]; pages: number }>(
        target,
        `/api/webhooks?organization_uuid=${encodeURIComponent(organization)}&per_page=100&page=${page}`,
      );
      webhooks.push(...answer.items);
      if (page >= answer.pages) break;
    }
    printList(webhooks, values.json, 'No webhooks.', {
      headers: ['UUID', 'ACTIVE', 'URL', 'EVENTS'],
      row: (w) => [w.uuid, w.is_active ? 'yes' : 'no', w.url, w.events.map(shortNameOf).join(',')],
    });
    return EXIT.ok;
  },
};

export const webhooksDeleteCommand: Command = {
  name: 'webhooks delete',
  summary: 'Delete webhooks by uuid (their pending deliveries stop). For what listen made: qr-sandbox listen --cleanup.',
  usage: `webhooks delete UUID... [--data-dir DIR | --profile NAME | --url URL --key KEY:SECRET]\n\n${EXIT_CODES}`,
  allowPositionals: true,
  options: { ...connectionOptions, ...dataDirOption },
  help: { ...connectionHelp, ...dataDirHelp },
  async run(values, positionals) {
    if (positionals.length === 0)
      throw new StartupError('webhooks delete takes the uuids to delete; list them with: qr-sandbox webhooks list');
    const target = await resolveTarget(values);
    for (const uuid of positionals) {
      await callApi(target, `/api/webhooks/uuid/${encodeURIComponent(uuid)}`, { method: 'DELETE' });
      process.stdout.write(`Deleted webhook ${uuid}.\n`);
    }
    return EXIT.ok;
  },
};
