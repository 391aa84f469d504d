import type { Migration } from 'kysely/migration';
import * as core from './001_core.ts';
import * as qrcodes from './002_qrcodes.ts';
import * as imports from './003_imports.ts';
import * as webhooks from './004_webhooks.ts';
import * as appointments from './005_appointments.ts';
import * as inboxes from './006_inboxes.ts';
import * as queryIndexes from './007_query_indexes.ts';

/** Numbered migrations, applied in order at start. Append; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '001_core': core,
  '002_qrcodes': qrcodes,
  '003_imports': imports,
  '004_webhooks': webhooks,
  '005_appointments': appointments,
  '006_inboxes': inboxes,
  '007_query_indexes': queryIndexes,
};
