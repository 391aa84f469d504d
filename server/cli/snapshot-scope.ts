/** What a snapshot holds, for every snapshot command's help. */
export const SNAPSHOT_SCOPE =
  "A snapshot holds all of one organization's data (the organization of the key in use): QR codes and tags, appointments,\n" +
  'services, import handlers, import tasks, webhooks with their deliveries, service confirmations, inboxes with their messages,\n' +
  'and settings. Not the whole data dir: not API keys (they survive a restore, so this command keeps working), not other\n' +
  'organizations, not uploaded files. Stored as DATA_DIR/snapshots/ORGANIZATION_UUID/NAME.sqlite. Needs an admin key.';

export const EXIT_CODES = 'Exit codes: 0 done, 2 an error (a bad option or name, an unknown snapshot, the server not reached or refusing).';
