import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../server/db/schema.ts';
import type { BackgroundTask } from '../../../server/tasks/schemas.ts';
import { insertTask } from '../../../server/tasks/store.ts';

/** A background task row as an import would leave it; fields can be overridden. */
export function makeTask(organizationUuid: string, overrides: Partial<BackgroundTask> = {}): BackgroundTask {
  const uuid = overrides.uuid ?? randomUUID();
  const now = new Date().toISOString();
  return {
    uuid,
    task_id: `task-${uuid.slice(0, 8)}`,
    task_type: 'QR_IMPORT',
    status: 'COMPLETED',
    progress: 100,
    created_by_uuid: randomUUID(),
    metadata: { filename: 'sites.csv', import_type: 'qr_code', source: 'file' },
    organization_uuid: organizationUuid,
    results: { inserted: 10, excluded: 0, excluded_data: [] },
    error_message: null,
    created_on: now,
    updated_on: now,
    ...overrides,
  };
}

/** Excluded rows of a QR code file import (docs/api.md excluded_data) of a CSV whose header is on line 1. */
export function excludedData(count: number): { index: number; row_number: number; error: string; row: Record<string, string> }[] {
  return Array.from({ length: count }, (_, i) => ({
    index: i * 2 + 1,
    row_number: i * 2 + 3,
    error:
      i % 3 === 0
        ? 'Address could not be located. Please check the street address, suburb, state, postcode and country.'
        : 'location is required',
    row: {
      location: i % 3 === 0 ? `${i} Nowhere Lane` : '',
      address_line_1: `${i} Nowhere Lane`,
      suburb: 'Fitzroy',
      state: 'VIC',
      postcode: '3065',
      country: 'AU',
    },
  }));
}

export async function seedTasks(db: Kysely<Database>, tasks: BackgroundTask[]): Promise<void> {
  for (const task of tasks) await insertTask(db, task);
}
