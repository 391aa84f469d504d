import { setTimeout as sleep } from 'node:timers/promises';
import { type Db, isBusy } from '../../db/database.ts';
import type { Geocoder } from '../../geocoding/geocoder.ts';
import { ApiError } from '../../http/errors.ts';
import type { ImportKind, Tally } from '../kind.ts';
import { fileRowWarnings } from '../engine/repeated-rows.ts';

export interface TrialOutcome {
  /** Each row's exclusion reason; null: it would be imported. */
  problems: Map<number, string | null>;
  /** The warnings of rows that would be imported (kind.ts WriterEnv.warn); absent when none. */
  warnings: Map<number, string[]>;
}

/** Thrown inside the transaction to roll it back once every row was written. */
class RollBack extends Error {}

const BUSY_RETRY_MS = 50;
const BUSY_GIVE_UP_MS = 10_000;

/**
 * Writes rows with the kind's own writer, exactly as an import's batch would (geocoder, service
 * catalog, tags, time zones, duplicates within the rows and with the stored data), inside one
 * transaction that is always rolled back, and answers each row's exclusion reason (null: it
 * would be imported) and the warnings of the rows it would import. For a preview's few rows: the transaction holds the write lock for
 * milliseconds; while an import holds it, the trial waits without blocking the event loop.
 */
export async function trialWrite<Row>(input: {
  db: Db;
  kind: ImportKind<Row>;
  geocoder: Geocoder;
  organizationUuid: string;
  options: Record<string, unknown>;
  rows: { index: number; row: Row }[];
  /** A row's number in its file, from its index: rows that write one record are warned about, naming the earlier (repeated-rows.ts). */
  rowNumber?: (index: number) => number;
}): Promise<TrialOutcome> {
  const { db, kind, rows } = input;
  const outcome = new Map<number, string | null>();
  const warnings = new Map<number, string[]>();
  if (rows.length === 0) return { problems: outcome, warnings };
  const tally: Tally = () => {};
  const warn = (index: number, message: string) => warnings.set(index, [...(warnings.get(index) ?? []), message]);
  const run = db.sqlite.transaction(() => {
    const writer = kind.openWriter({
      db,
      organizationUuid: input.organizationUuid,
      geocoder: input.geocoder,
      options: input.options,
      ...(input.rowNumber ? fileRowWarnings(warn, input.rowNumber) : { warn }),
    });
    for (const { index, row } of rows) outcome.set(index, writer.write(row, index, tally));
    throw new RollBack();
  });
  db.sqlite.pragma('busy_timeout = 0');
  const started = Date.now();
  for (;;) {
    try {
      run.immediate();
    } catch (error) {
      if (error instanceof RollBack) return { problems: outcome, warnings };
      if (!isBusy(error)) throw error;
      if (Date.now() - started > BUSY_GIVE_UP_MS) {
        throw new ApiError(
          'CONFLICT',
          `Another import kept the database busy for ${BUSY_GIVE_UP_MS / 1000} s, so the rows could not be checked; try again in a moment.`,
        );
      }
      outcome.clear();
      warnings.clear();
      await sleep(BUSY_RETRY_MS);
    }
  }
}
