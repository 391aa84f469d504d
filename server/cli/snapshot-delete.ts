import { StartupError } from '../startup-error.ts';
import { callApi } from './api-call.ts';
import { dataDirHelp, dataDirOption, type Command } from './command.ts';
import { connectionHelp, connectionOptions, resolveTarget } from './connection.ts';
import { EXIT_CODES } from './snapshot-scope.ts';

export const snapshotDeleteCommand: Command = {
  name: 'snapshot delete',
  summary: "Delete a snapshot file (the organization's data is not touched).",
  usage: `snapshot delete NAME [--data-dir DIR | --profile NAME | --url URL --key KEY:SECRET]\n\n${EXIT_CODES}`,
  allowPositionals: true,
  options: { ...connectionOptions, ...dataDirOption },
  help: { ...connectionHelp, ...dataDirHelp },
  async run(values, positionals) {
    const name = positionals[0];
    if (!name || positionals.length > 1) throw new StartupError('snapshot delete takes one NAME; list them with: qr-sandbox snapshot list');
    const target = await resolveTarget(values);
    await callApi(target, `/api/snapshots/${encodeURIComponent(name)}`, { method: 'DELETE' });
    process.stdout.write(`Deleted snapshot ${name}.\n`);
    return 0;
  },
};
