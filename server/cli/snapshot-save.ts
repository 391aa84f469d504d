import { countOf } from '../../common/count-words.ts';
import { StartupError } from '../startup-error.ts';
import type { SavedSnapshot } from '../snapshots/schemas.ts';
import { callApiFor } from './api-call.ts';
import { dataDirHelp, type Command } from './command.ts';
import { clientOptions } from './client-command.ts';
import { connectionHelp, resolveTarget } from './connection.ts';
import { EXIT_CODES, SNAPSHOT_SCOPE } from './snapshot-scope.ts';

export const snapshotSaveCommand: Command = {
  name: 'snapshot save',
  summary: "Save all of the organization's data under a name, while the server runs.",
  usage:
    `snapshot save NAME [--force] [--json] [--data-dir DIR | --profile NAME | --url URL --key KEY:SECRET]\n\n${SNAPSHOT_SCOPE}\n` +
    'Refused (nothing saved) while an import of the organization runs.\n\n' +
    'Examples:\n  qr-sandbox snapshot save baseline\n  qr-sandbox snapshot save baseline --force   # replace it\n\n' +
    EXIT_CODES,
  allowPositionals: true,
  options: { force: { type: 'boolean' }, ...clientOptions },
  help: {
    force: 'Replace a snapshot of that name',
    json: 'Print the answer as one JSON object (name, size_bytes, created_on, counts)',
    ...connectionHelp,
    ...dataDirHelp,
  },
  async run(values, positionals) {
    const name = positionals[0];
    if (!name || positionals.length > 1) throw new StartupError('snapshot save takes one NAME, e.g. qr-sandbox snapshot save baseline.');
    const target = await resolveTarget(values);
    const saved = await callApiFor<SavedSnapshot>(target, '/api/snapshots', {
      method: 'POST',
      body: { name, replace: values.force === true },
    });
    if (values.json) {
      process.stdout.write(`${JSON.stringify(saved)}\n`);
      return 0;
    }
    const counts = saved.counts;
    process.stdout.write(
      `Saved snapshot ${saved.name} (${formatSize(saved.size_bytes)}): ${countOf(counts.qrcodes ?? 0, 'QR code')}, ${countOf(counts.appointment_schedules ?? 0, 'appointment')}, ` +
        `${countOf(counts.services ?? 0, 'service')}, ${countOf(counts.webhooks ?? 0, 'webhook')}, ${countOf(counts.webhook_deliveries ?? 0, 'delivery', 'deliveries')}, ` +
        `${countOf(counts.inboxes ?? 0, 'inbox', 'inboxes')}, ${countOf(counts.inbox_messages ?? 0, 'inbox message')}.\nRestore it with: qr-sandbox snapshot restore ${saved.name}\n`,
    );
    return 0;
  },
};

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
