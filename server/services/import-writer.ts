import type { BatchWriter, WriterEnv } from '../imports/kind.ts';
import { CatalogWrites } from './catalog-writes.ts';
import type { ServiceImportRow } from './import-row.ts';
import { catalogKey } from './store.ts';

/** Counter names of a services import. */
export const SERVICE_COUNTERS = { inserted: 'inserted', updated: 'updated', unchanged: 'unchanged' } as const;

const sameCategories = (had: readonly string[], wanted: readonly string[]) =>
  had.length === wanted.length && had.every((name, i) => name === wanted[i]);

/**
 * Writes services import rows through the catalog's one write path (catalog-writes.ts). A row is
 * the service with its code (when it has one), else with its name (ignoring case): that service is
 * changed, or a new one added. A blank code or categories cell leaves the service's as they are.
 */
export function openServiceWriter(env: WriterEnv): BatchWriter<ServiceImportRow> {
  const writes = new CatalogWrites(env.db);
  const org = env.organizationUuid;
  return {
    write(row, index, tally) {
      const code = row.code ?? null;
      const found = writes.find(org, { name: row.name, code });
      const clash = writes.clash(org, { name: row.name, code }, found?.uuid);
      if (clash) {
        const byName = clash.name_key === catalogKey(row.name);
        return byName
          ? `name: another service (code ${clash.code ?? 'none'}) already has the name "${clash.name}"; names are unique in an organization, ignoring case`
          : `code: the service "${clash.name}" already has the code "${clash.code ?? ''}"; codes are unique in an organization, ignoring case`;
      }
      let uuid: string;
      if (!found) {
        uuid = writes.insert(org, { name: row.name, code, categories: row.categories ?? [] });
        tally(SERVICE_COUNTERS.inserted);
      } else {
        uuid = found.uuid;
        const change = {
          ...(found.name === row.name ? {} : { name: row.name }),
          ...(code === null || found.code === code ? {} : { code }),
          ...(row.categories === undefined || sameCategories(writes.categoryNames(uuid), row.categories)
            ? {}
            : { categories: row.categories }),
        };
        if (Object.keys(change).length === 0) tally(SERVICE_COUNTERS.unchanged);
        else {
          writes.update(uuid, change);
          tally(SERVICE_COUNTERS.updated);
        }
      }
      env.wrote?.(index, uuid, code === null ? `name ${row.name}` : `code ${code}`, 'service');
      return null;
    },
  };
}
