import { z } from 'zod';
import { dryRunFields, importResultFields, resultCount } from '../imports/engine/result-fields.ts';
import { rowNumberSchema } from '../imports/engine/row-number-schema.ts';
import { SERVICE_IMPORT_COLUMNS } from './import-row.ts';

/** The note every schema of the services import carries: the real service has no such endpoint. */
export const SERVICE_IMPORT_ADDITION =
  "SANDBOX ADDITION: the real service has no services import (its catalog is kept by other means); this sandbox's own, for filling a catalog of hundreds of services at once.";

/** An excluded row as services import results show it. */
const excludedServiceRowSchema = z
  .object({
    index: z.number().int().min(0).describe('0-based position among the data rows (array element for JSON)'),
    row_number: rowNumberSchema,
    error: z.string().describe('Why the row was excluded'),
    row: z
      .object(Object.fromEntries(SERVICE_IMPORT_COLUMNS.map((column) => [column, z.string().nullable()])))
      .describe("The row's name, code and categories as given"),
  })
  .meta({ id: 'ExcludedServiceRow' });

/** Results of a services import (task SERVICE_IMPORT), JSON or file. */
export const serviceImportResultsSchema = z
  .object({
    inserted: resultCount('New services'),
    updated: resultCount('Existing services changed (same code, else same name)'),
    unchanged: resultCount('Existing services the row matched exactly'),
    excluded: resultCount('Every excluded row'),
    excluded_services: z.array(excludedServiceRowSchema).describe('The first 1,000 excluded rows; all of them are in the error report'),
    ...importResultFields,
  })
  .meta({ id: 'ServiceImportResults', description: SERVICE_IMPORT_ADDITION });
export type ServiceImportResults = z.infer<typeof serviceImportResultsSchema>;

export const serviceImportDryRunSchema = serviceImportResultsSchema.extend(dryRunFields).meta({ id: 'ServiceImportDryRun' });

/** One service to import (the JSON form); rows are checked one by one, so a bad row is excluded, not a 400. */
export const serviceImportRecordSchema = z
  .object(Object.fromEntries(SERVICE_IMPORT_COLUMNS.map((column) => [column, z.union([z.string(), z.number()]).optional()])))
  .meta({
    id: 'ServiceImportRecord',
    description: 'One service to import: name is required; code and categories (names separated by ";") are optional',
  });
