import type { ResolvedImportHandler } from '../import-handlers/handlers.ts';
import type { TaskType } from '../tasks/schemas.ts';
import type { ImportKind } from './kind.ts';
import type { ImportKindId } from './schemas.ts';

/**
 * What the registry (kinds.ts) knows of an import kind without loading it: the server's routes,
 * the renderer (through GET /api/meta) and the workers read it. A kind's module, with its
 * columns, row checks and writer, loads on first use (`load`), so a worker loads only the kinds it runs.
 */
export interface ImportKindEntry {
  id: ImportKindId;
  /** The kind in words, as the GUI names it. */
  label: string;
  /** Task types its imports create. */
  taskTypes: readonly TaskType[];
  /** Its endpoints: the bulk import (JSON or a file), the CSV template, the error report of a task. */
  paths: { upload: string; template: string; errorReport: string };
  /** The template download's file name. */
  templateFileName: string;
  /** Whether saved column mappings (import handlers, the org_identifier field) apply to it. */
  usesHandlers: boolean;
  /** The job options a preview of its file runs with, under the handler the request named. */
  previewOptions(handler: ResolvedImportHandler): Record<string, unknown>;
  /** A job's options for a background run (a retry of any import runs in the background). */
  backgroundOptions(options: Record<string, unknown>): Record<string, unknown>;
  load(): Promise<ImportKind>;
}
