/**
 * What an organization's snapshot holds: each table's rows of the organization, parents before
 * children (the order they are restored in). `rows` selects them from the `main` database with
 * the organization as its one parameter, through an index. API keys and the organization itself
 * are not in it: they stay as they are, so the credential that restores a snapshot keeps working.
 * Sync imports' appointment_import_upserts are transient and not kept.
 */
export interface SnapshotTable {
  name: string;
  /** `from main.<name> where …`, one `?` for the organization uuid. */
  rows: string;
  /** Copy the rowid too, to restore the rows in their order (QR codes are listed by rowid). */
  keepsRowOrder?: boolean;
  /** The column naming the row's parent, in a table earlier in the list (checked before a restore: the parent must be in the snapshot). */
  parent?: { column: string; table: string; key: string };
}

const ofOrganization = (name: string): SnapshotTable => ({ name, rows: `from main.${name} where organization_uuid = ?` });
const tasks = 'select uuid from main.background_tasks where organization_uuid = ?';
const webhooks = 'select uuid from main.webhooks where organization_uuid = ?';
const inboxes = 'select uuid from main.inboxes where organization_uuid = ?';
const ofTask = { column: 'task_uuid', table: 'background_tasks', key: 'uuid' };

export const SNAPSHOT_TABLES: SnapshotTable[] = [
  ofOrganization('organization_settings'),
  ofOrganization('services'),
  {
    name: 'service_categories',
    rows: 'from main.service_categories where service_uuid in (select uuid from main.services where organization_uuid = ?)',
    parent: { column: 'service_uuid', table: 'services', key: 'uuid' },
  },
  ofOrganization('import_handlers'),
  { ...ofOrganization('qrcodes'), keepsRowOrder: true },
  ofOrganization('qr_code_tags'),
  ofOrganization('background_tasks'),
  { name: 'import_jobs', rows: `from main.import_jobs where task_uuid in (${tasks})`, parent: ofTask },
  { name: 'import_excluded_rows', rows: `from main.import_excluded_rows where task_uuid in (${tasks})`, parent: ofTask },
  ofOrganization('appointment_schedules'),
  ofOrganization('webhooks'),
  ofOrganization('service_confirmations'),
  ofOrganization('webhook_events'),
  {
    name: 'webhook_deliveries',
    rows: `from main.webhook_deliveries where webhook_uuid in (${webhooks})`,
    parent: { column: 'webhook_uuid', table: 'webhooks', key: 'uuid' },
  },
  {
    name: 'webhook_delivery_attempts',
    rows: `from main.webhook_delivery_attempts where delivery_id in (select delivery_id from main.webhook_deliveries where webhook_uuid in (${webhooks}))`,
    parent: { column: 'delivery_id', table: 'webhook_deliveries', key: 'delivery_id' },
  },
  ofOrganization('inboxes'),
  {
    name: 'inbox_messages',
    rows: `from main.inbox_messages where inbox_uuid in (${inboxes})`,
    parent: { column: 'inbox_uuid', table: 'inboxes', key: 'uuid' },
  },
  {
    name: 'inbox_relays',
    rows: `from main.inbox_relays where message_uuid in (select uuid from main.inbox_messages where inbox_uuid in (${inboxes}))`,
    parent: { column: 'message_uuid', table: 'inbox_messages', key: 'uuid' },
  },
];
