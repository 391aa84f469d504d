import type { SnapshotInfo } from '../snapshots/schemas.ts';
import { callApiFor, printList } from './api-call.ts';
import { dataDirHelp, type Command } from './command.ts';
import { clientOptions } from './client-command.ts';
import { connectionHelp, resolveTarget } from './connection.ts';
import { EXIT_CODES, SNAPSHOT_SCOPE } from './snapshot-scope.ts';
import { formatSize } from './snapshot-save.ts';

export const snapshotListCommand: Command = {
  name: 'snapshot list',
  summary: "List the organization's snapshots, newest first, with size and time.",
  usage: `snapshot list [--json] [--data-dir DIR | --profile NAME | --url URL --key KEY:SECRET]\n\n${SNAPSHOT_SCOPE}\n\n${EXIT_CODES}`,
  options: clientOptions,
  help: { json: 'One JSON object per snapshot and line: name, size_bytes, created_on', ...connectionHelp, ...dataDirHelp },
  async run(values) {
    const target = await resolveTarget(values);
    const { items } = await callApiFor<{ items: SnapshotInfo[] }>(target, '/api/snapshots');
    printList(items, values.json, 'No snapshots yet. Save one with: qr-sandbox snapshot save NAME', {
      headers: ['NAME', 'SIZE', 'SAVED'],
      row: (s) => [s.name, formatSize(s.size_bytes), s.created_on.replace(/\.\d+Z$/, 'Z')],
    });
    return 0;
  },
};
