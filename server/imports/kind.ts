import type { z } from 'zod';
import type { Db } from '../db/database.ts';
import type { Geocoder } from '../geocoding/geocoder.ts';
import type { RawRecord } from './engine/raw-record.ts';

export type { RawRecord };

/**
 * The plug-in API of the import engine. An import kind (QR codes, appointments) says which
 * columns it reads, how one row is validated, and how a batch of valid rows is written; the
 * engine does everything else: uploads, format sniffing, streaming parsers, header matching,
 * batching, checkpoints, task lifecycle, excluded rows, error reports and the worker pool.
 *
 * A kind lives in a module of its own and is named by a stable id (`qrcodes`), which the
 * registry in kinds.ts maps to that module: workers load it from there on first use.
 */

/** An excluded row as results show it (docs/api.md `excluded_data`). */
export interface ExcludedRow {
  index: number;
  /** Where the row is in its file (sources/row-numbers.ts). */
  row_number: number;
  error: string;
  row: Record<string, unknown>;
}

/** Where the rows came from: a JSON array body or an uploaded file. */
export type ImportSource = 'json' | 'file';

export interface ImportSummary {
  source: ImportSource;
  /** The kind's counters, exact. */
  counts: Record<string, number>;
  /** Exact number of excluded rows. */
  excludedCount: number;
  /** The first excluded rows (at most MAX_EXCLUDED_IN_RESULTS), in row order. */
  excluded: ExcludedRow[];
  options: Record<string, unknown>;
}

/** Adds to one of the kind's counters. */
export type Tally = (counter: string, by?: number) => void;

export interface WriterEnv {
  /** The worker's own connection; `write` runs inside its open transaction. */
  db: Db;
  organizationUuid: string;
  geocoder: Geocoder;
  options: Record<string, unknown>;
  /**
   * Records a warning for a row the writer imports anyway (an address located by its place
   * rather than as written, a start time a daylight-saving change makes ambiguous). Warnings are
   * not exclusions: the row is written. Worded as the row's errors are (the column first when
   * it is about one).
   */
  warn?(index: number, message: string): void;
  /**
   * Says which record a written row wrote (its uuid) and what identified it, in the row's words
   * (`key`: "qr_code_external_reference_id EXT-1019"; `noun`: "QR code"): a row writing a record an
   * earlier row of the file wrote is warned about (engine/repeated-rows.ts).
   */
  wrote?(index: number, record: string, key: string, noun: string): void;
}

export interface BatchWriter<Row> {
  /**
   * Writes one valid row, synchronously, inside the batch's transaction. Returns null when
   * written, or the reason the row is excluded (then it must have written nothing).
   */
  write(row: Row, index: number, tally: Tally): string | null;
  /** Runs last in each batch's transaction, before its commit: work done once for the batch's rows. */
  endBatch?(): void;
}

export interface ImportKind<Row = unknown> {
  /** Column names in template order. Header cells match them ignoring case, spaces and underscores. */
  columns: readonly string[];
  /** Each column in words for a field admin ({ address_line_1: 'Street address' }), shown beside the column's name. */
  columnLabels: Readonly<Record<string, string>>;
  /** Other header names accepted for a column: { alias: column }. */
  aliases?: Readonly<Record<string, string>>;
  /**
   * Other names people give a column in their own files ({ column: names }): "Street Address" for
   * address_line_1. Matched loosely (case, spaces and punctuation ignored), then by similarity.
   */
  synonyms?: Readonly<Record<string, readonly string[]>>;
  /** Columns a file must have; missing ones are a 400 naming them, before any task starts. */
  requiredColumns: readonly string[];
  /**
   * Required columns other columns can stand in for, each alternative a set of columns that
   * together do ({ location: [['address_line_1', 'suburb']] }: the location is composed from the parts).
   */
  requiredUnless?: Readonly<Record<string, readonly (readonly string[])[]>>;
  /**
   * Longest text each column takes, in characters (the row check refuses longer): an import
   * draft refuses a change that would make a cell longer (import-drafts/bounds.ts).
   */
  maxLength?: Readonly<Record<string, number>>;
  /** Columns holding dates whose order (day or month first) is read per file (docs/imports.md). */
  dateColumns?: readonly string[];
  /** One example row for the template, in column order; `organization_uuid` is filled in per caller. */
  exampleRow: Readonly<Record<string, string>>;
  /**
   * Optional cheap normalisation of a row before the schema (e.g. cells to trimmed text), so the
   * schema can stay plain: zod is several times faster on plain objects than with preprocess.
   */
  prepare?(record: RawRecord): RawRecord;
  /** Validates one row. Issues become the row's error, each naming its field. */
  rowSchema: z.ZodType<Row>;
  /**
   * Optional fast path for well-formed rows, given the record before `prepare`: exactly what
   * `rowSchema` gives for `prepare(record)` when it accepts it, or undefined to let the schema
   * decide (and word the errors).
   */
  quickParse?(record: RawRecord): Row | undefined;
  /** The `row` object echoed in excluded entries. */
  echo(record: RawRecord): Record<string, unknown>;
  /**
   * For previews: how a valid row's cells were read, in words (e.g. how a date was understood).
   * The preview also runs the writer on its rows (trial-write.ts), so problems come from there.
   */
  previewNotes?(row: Row, context: { db: Db; organizationUuid: string; options: Record<string, unknown> }): string[];
  /** Called once per task run in the worker. */
  openWriter(env: WriterEnv): BatchWriter<Row>;
  /** The task's results (and the sync answer) from the summary. */
  results(summary: ImportSummary): Record<string, unknown>;
  /** Every table the writer writes: a dry run shadows them (scratch-db.ts), and SQLite refuses writes to any other. */
  writtenTables: readonly string[];
  /** What a dry run's shadow of a written table needs besides its definition and indexes (e.g. a search index kept up by triggers). */
  shadowExtras?: readonly ShadowExtra[];
  /**
   * A dry run's answer, when it differs from the results (e.g. a sync answer read from the tables).
   * Runs in the worker on the dry run's scratch connection, after the import completed there.
   */
  dryRunAnswer?(context: DryRunContext): Promise<Record<string, unknown>>;
  /** What a dry run here cannot know about the real service's answer, in plain words. */
  dryRunNotes: readonly string[];
}

/** For a table with triggers: which the shadow may go without, and the SQL that creates what they wrote to instead. */
export interface ShadowExtra {
  table: string;
  skippedTriggers: ReadonlySet<string>;
  sql?: string;
}

export interface DryRunContext {
  db: Db;
  taskUuid: string;
  results: Record<string, unknown>;
  /** Sync mode (the row cap applies, and the answer is the sync answer). */
  sync: boolean;
  options: Record<string, unknown>;
}

export const MAX_EXCLUDED_IN_RESULTS = 1000;
