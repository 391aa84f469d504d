import { countOf } from '../../common/count-words.ts';
import { StartupError } from '../startup-error.ts';
import type { RestoredSnapshot } from '../snapshots/schemas.ts';
import { callApiFor } from './api-call.ts';
import { dataDirHelp, type Command } from './command.ts';
import { clientOptions } from './client-command.ts';
import { connectionHelp, resolveTarget } from './connection.ts';
import { EXIT_CODES, SNAPSHOT_SCOPE } from './snapshot-scope.ts';

export const snapshotRestoreCommand: Command = {
  name: 'snapshot restore',
  summary: "Replace all of the organization's data by a snapshot's, atomically, while the server runs.",
  usage:
    `snapshot restore NAME [--json] [--data-dir DIR | --profile NAME | --url URL --key KEY:SECRET]\n\n${SNAPSHOT_SCOPE}\n` +
    'One transaction: all of it happens or nothing does. Refused (nothing changes) while an import of the organization runs:\n' +
    'wait for it (qr-sandbox tasks watch UUID) and restore again. Open GUIs read everything again by themselves.\n\n' +
    'Example:\n  qr-sandbox snapshot restore baseline\n\n' +
    EXIT_CODES,
  allowPositionals: true,
  options: clientOptions,
  help: { json: 'Print the answer as one JSON object (name, created_on, deleted, restored)', ...connectionHelp, ...dataDirHelp },
  async run(values, positionals) {
    const name = positionals[0];
    if (!name || positionals.length > 1)
      throw new StartupError('snapshot restore takes one NAME; list them with: qr-sandbox snapshot list');
    const target = await resolveTarget(values);
    const restored = await callApiFor<RestoredSnapshot>(target, `/api/snapshots/${encodeURIComponent(name)}/restore`, {
      method: 'POST',
      body: {},
    });
    if (values.json) {
      process.stdout.write(`${JSON.stringify(restored)}\n`);
      return 0;
    }
    const counts = restored.restored;
    process.stdout.write(
      `Restored snapshot ${restored.name} of ${restored.created_on}: ${countOf(counts.qrcodes ?? 0, 'QR code')}, ${countOf(counts.appointment_schedules ?? 0, 'appointment')}, ` +
        `${countOf(counts.webhooks ?? 0, 'webhook')}, ${countOf(counts.inboxes ?? 0, 'inbox', 'inboxes')} (replacing ${countOf(restored.deleted.qrcodes, 'QR code')}, ${countOf(restored.deleted.appointments, 'appointment')}).\n`,
    );
    return 0;
  },
};
