import type { ResetResult } from '../snapshots/schemas.ts';
import { countOf } from '../../common/count-words.ts';
import { StartupError } from '../startup-error.ts';
import { callApiFor } from './api-call.ts';
import { dataDirHelp, type Command } from './command.ts';
import { clientOptions } from './client-command.ts';
import { connectionHelp, resolveTarget } from './connection.ts';

export const resetCommand: Command = {
  name: 'reset',
  summary: 'Empty the organization: delete all its data in one transaction (asks for --empty --yes).',
  usage:
    'reset --empty --yes [--json] [--data-dir DIR | --profile NAME | --url URL --key KEY:SECRET]\n\n' +
    "Deletes all of the organization's QR codes and tags, appointments, services, import handlers, import tasks, webhooks\n" +
    'with their deliveries, service confirmations and inboxes with their messages. Its API keys, settings and snapshots stay,\n' +
    'other organizations are not touched. Refused (nothing deleted) while an import of the organization runs. Needs an admin key.\n' +
    'Save a snapshot first if you may want the data back: qr-sandbox snapshot save NAME\n\n' +
    'Example:\n  qr-sandbox reset --empty --yes\n\n' +
    'Exit codes: 0 done, 2 an error (--empty or --yes missing, the server not reached or refusing).',
  options: { empty: { type: 'boolean' }, yes: { type: 'boolean' }, ...clientOptions },
  help: {
    empty: 'Required: say that the organization is to be emptied (nothing is seeded)',
    yes: 'Required: confirm, since the data cannot be brought back without a snapshot',
    json: 'Print the answer as one JSON object: the rows deleted, by kind',
    ...connectionHelp,
    ...dataDirHelp,
  },
  async run(values) {
    if (values.empty !== true || values.yes !== true) {
      throw new StartupError("reset deletes all of the organization's data: run it as qr-sandbox reset --empty --yes");
    }
    const target = await resolveTarget(values);
    const result = await callApiFor<ResetResult>(target, '/api/reset', { method: 'POST', body: { empty: true } });
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    }
    const d = result.deleted;
    process.stdout.write(
      `Emptied the organization: deleted ${countOf(d.qrcodes, 'QR code')}, ${countOf(d.appointments, 'appointment')}, ${countOf(d.services, 'service')}, ` +
        `${countOf(d.webhooks, 'webhook')}, ${countOf(d.deliveries, 'delivery', 'deliveries')}, ${countOf(d.inboxes, 'inbox', 'inboxes')}, ` +
        `${countOf(d.tasks, 'import task')}. API keys, settings and snapshots stay.\n`,
    );
    return 0;
  },
};
