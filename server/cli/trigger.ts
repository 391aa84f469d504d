import { StartupError } from '../startup-error.ts';
import type { Command } from './command.ts';
import { clientHelp, clientOptions, countOption, emit, readJsonFile } from './client-command.ts';
import { EXIT } from './exit-codes.ts';
import { organizationOf, resolveTarget } from './connection.ts';
import {
  describeRecorded,
  recordedJson,
  recordEvent,
  simulatedNamesText,
  simulatedShortNames,
  toSimulatedEventType,
} from './record-event.ts';

function readOverrides(file: string | undefined): Record<string, unknown> | undefined {
  if (file === undefined) return undefined;
  const data = readJsonFile(file, '--data file');
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new StartupError(`The --data file ${file} must hold one JSON object of confirmation fields, e.g. {"note": "Left at reception"}.`);
  }
  return data as Record<string, unknown>;
}

export const triggerCommand: Command = {
  name: 'trigger',
  summary: 'Record service confirmations on the server, which sends their events to the subscribed webhooks; prints each event id.',
  usage: `trigger ${simulatedShortNames.join('|')} [--qr-code UUID] [--data FILE.json] [--count N] [--json]`,
  allowPositionals: true,
  options: { 'qr-code': { type: 'string' }, data: { type: 'string' }, count: { type: 'string' }, ...clientOptions },
  help: {
    'qr-code': "QR code the service was confirmed at. Default: one of the organization's (a demo one if it has none)",
    data: 'JSON file of confirmation fields that replace the generated ones (note, user, service, checked_in_at, ...)',
    count: 'How many events to record, one after the other (1 to 1000). Default 1',
    ...clientHelp,
  },
  examples: [
    'qr-sandbox trigger check_in',
    'qr-sandbox trigger delivery --count 5 --data delivery.json --json | jq -r .event_id',
    'QR_SANDBOX_URL=http://127.0.0.1:8787 QR_SANDBOX_KEY=KEY:SECRET qr-sandbox trigger check_out --qr-code 0b6f...',
  ],
  async run(values, positionals) {
    if (positionals.length !== 1) throw new StartupError(`trigger takes one event: ${simulatedNamesText}.`);
    const event = toSimulatedEventType(positionals[0] ?? '');
    const count = countOption(values, 'count', 1);
    const overrides = readOverrides(typeof values.data === 'string' ? values.data : undefined);
    const target = await resolveTarget(values);
    const organization = await organizationOf(target);
    const qrCodeUuid = typeof values['qr-code'] === 'string' ? values['qr-code'] : undefined;
    for (let i = 0; i < count; i++) {
      const recorded = await recordEvent(target.client, organization, event, { qrCodeUuid, overrides });
      emit(values, recordedJson(recorded), describeRecorded(recorded));
    }
    return EXIT.ok;
  },
};
