import type { Db } from '../db/database.ts';
import type { Geocoder } from '../geocoding/geocoder.ts';
import { matchHeader, withColumnAliases } from '../imports/engine/columns.ts';
import { rowChecker } from '../imports/engine/row-check.ts';
import type { ImportKind } from '../imports/kind.ts';
import { trialWrite } from '../imports/preview/trial-write.ts';
import type { ImportKindId } from '../imports/schemas.ts';

/** Rows of a draft to check: cells in the kind's column order, as the import of the fixed rows reads them. */
export interface DraftCheckRequest {
  op: 'check-rows';
  kind: ImportKindId;
  organizationUuid: string;
  options: Record<string, unknown>;
  rows: { index: number; cells: string[] }[];
}

export interface DraftCheckResult {
  verdicts: { index: number; problem: string | null }[];
}

/**
 * Each row's verdict as the import of the fixed rows would give it now: the engine's own row checks
 * (organization, the kind's prepare and schema), then the kind's writer in a rolled-back
 * transaction (trial-write.ts: geocoder, catalog, time zones, duplicates with the stored data and
 * among these rows). Runs in the upload reader's worker process, never on the server's thread.
 */
export async function checkDraftRows(input: {
  db: Db;
  kind: ImportKind;
  geocoder: Geocoder;
  organizationUuid: string;
  options: Record<string, unknown>;
  rows: DraftCheckRequest['rows'];
}): Promise<DraftCheckResult> {
  const { kind } = input;
  const columns = withColumnAliases(kind, input.options);
  const checker = rowChecker(kind, columns, { format: 'csv', organizationUuid: input.organizationUuid });
  checker.setMapping(matchHeader(columns, kind.columns).mapping);
  const problems = new Map<number, string | null>();
  const valid: { index: number; row: unknown }[] = [];
  for (const { index, cells } of input.rows) {
    const checked = checker.check(index, cells);
    if (checked === null) problems.set(index, 'The row is empty: fill it in or delete it.');
    else if ('error' in checked) problems.set(index, checked.error);
    else valid.push({ index, row: checked.row });
  }
  const written = await trialWrite({
    db: input.db,
    kind,
    geocoder: input.geocoder,
    organizationUuid: input.organizationUuid,
    options: input.options,
    rows: valid,
  });
  for (const [index, problem] of written.problems) problems.set(index, problem);
  return { verdicts: input.rows.map(({ index }) => ({ index, problem: problems.get(index) ?? null })) };
}
