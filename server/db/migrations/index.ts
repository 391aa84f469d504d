import type { Migration } from 'kysely/migration';
import * as core from './001_core.ts';
import * as qrcodes from './002_qrcodes.ts';
import * as imports from './003_imports.ts';
import * as appointments from './005_appointments.ts';

/** Numbered migrations, applied in order at start. Append; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '001_core': core,
  '002_qrcodes': qrcodes,
  '003_imports': imports,
  '005_appointments': appointments,
};
