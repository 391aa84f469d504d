import type { z } from 'zod';
import type { ImportKind, ImportSource } from './kind.ts';

/** A count of an import's results in words: `label` follows the number ("3 inserted"); `always` shows it even when 0. */
export interface ResultWord {
  key: string;
  label: string;
  always?: boolean;
}

/** A task type an import kind creates, with what every client needs to show its results. */
export interface ImportTaskEntry {
  /** The task_type (docs/api.md). */
  type: string;
  /** The imports that create it: a JSON array body, a file, or both. */
  source: ImportSource | 'any';
  /** The task type in words ("QR code file import"). */
  label: string;
  /** Its results' schema (the task's `results`), its OpenAPI name and description. */
  results: z.ZodType;
  schemaId: string;
  description: string;
  /** Its counts in the order shown, with their words (the task page, the import's result). */
  counters: readonly ResultWord[];
  /** The few counts of the task list's one line. */
  summary: readonly ResultWord[];
  /** Counts of written rows: with the excluded ones, the records the import read. */
  written: readonly string[];
  /** The results' key of the exact excluded count, and of the list of the first excluded rows. */
  excludedCount: string;
  excludedList: string;
}

/**
 * What the registry (kinds.ts) knows of an import kind without loading it: the server's routes,
 * the task schemas, the renderer (through GET /api/meta) and the workers read it. A kind's module, with its
 * columns, row checks and writer, loads on first use (`load`), so a worker loads only the kinds it runs.
 * Everything that differs between kinds is said here or in the kind's module: no other file names a kind.
 */
export interface ImportKindEntry<Id extends string = string> {
  /** Its stable id: what import_jobs.kind stores, the preview's `kind` field, the CLI's --type. */
  id: Id;
  /** The kind in words, as the GUI names it ("QR code addresses"). */
  label: string;
  /** The kind within a sentence ("QR code addresses", "appointments") and a file of it ("a QR code addresses file"). */
  inASentence: string;
  fileNoun: string;
  /** What a check (dry run) of a file of it does, in words ("every row checked, addresses located"). */
  checks: string;
  /** Task types its imports create. */
  tasks: readonly ImportTaskEntry[];
  /** Its endpoints: the bulk import (JSON or a file), the CSV template, the error report of a task. */
  paths: { upload: string; template: string; errorReport: string };
  /** The template download's file name. */
  templateFileName: string;
  /** Whether saved column mappings (import handlers, the org_identifier field) apply to it. */
  usesHandlers: boolean;
  /** The columns a saved column mapping of this kind may name (its columns), and what they are in words ("QR code import columns"). */
  handlerColumns: readonly string[];
  handlerColumnsNoun: string;
  /** A JSON file is sent to the upload path as a JSON array body (remote mode, the CLI), not as a file. */
  jsonFileAsBody: boolean;
  /** Its results have located addresses a map can show. */
  mapsResults: boolean;
  /** Where the GUI lists what it imports, and that link's words. */
  records: { guiPath: string; label: string };
  /**
   * An import worker's SQLite page cache for its jobs, in MB (default 8): more for a kind whose
   * writes touch indexes at random places (docs/performance.md).
   */
  workerCacheMb?: number;
  /** The job options a preview of its file runs with, under the handler the request named. */
  previewOptions(handler: { slug: string; mapping: Readonly<Record<string, string>> }): Record<string, unknown>;
  /** A job's options for a background run (a retry of any import runs in the background). */
  backgroundOptions(options: Record<string, unknown>): Record<string, unknown>;
  load(): Promise<ImportKind>;
}

/** An entry as written in its kind's folder (the type checks it; the registry keeps it as is). */
export const defineImportKind = <const Id extends string>(entry: ImportKindEntry<Id>): ImportKindEntry<Id> => entry;

/** The task type an import from `source` creates. */
export function taskTypeFor(entry: ImportKindEntry, source: ImportSource): string {
  const task = entry.tasks.find((t) => t.source === source || t.source === 'any');
  if (!task) throw new Error(`The import kind ${entry.id} has no task type for a ${source} import.`);
  return task.type;
}
