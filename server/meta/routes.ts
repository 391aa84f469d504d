import { z } from 'zod';
import { APPOINTMENT_FIELDS } from '../appointments/fields.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import type { ResultWord } from '../imports/kind-entry.ts';
import { importKinds } from '../imports/kinds.ts';
import { importKindIds } from '../imports/schemas.ts';
import { taskTypeSchema } from '../tasks/schemas.ts';
import { eventMetaSchema, eventsMeta } from '../webhook-events/meta.ts';

const resultWordSchema = z.object({
  key: z.string().describe("The results' key"),
  label: z.string().describe('Its words after the number ("3 inserted")'),
  always: z.boolean().describe('Shown even when 0'),
});

const importTaskMetaSchema = z
  .object({
    type: taskTypeSchema,
    source: z.enum(['json', 'file', 'any']).describe('The imports that create it: a JSON array body, a file, or both'),
    label: z.string().describe('The task type in words'),
    counters: z.array(resultWordSchema).describe("Its results' counts in the order shown, with their words"),
    summary: z.array(resultWordSchema).describe("The counts of a task list's one line"),
    written: z.array(z.string()).describe('Counts of written rows: with the excluded ones, the records the import read'),
    excluded_count: z.string().describe("The results' key of the exact number of excluded rows"),
    excluded_list: z.string().describe("The results' key of the first excluded rows"),
  })
  .meta({ id: 'ImportTaskMeta' });

const importKindMetaSchema = z
  .object({
    id: z.enum(importKindIds).describe("The kind, as the preview's `kind` field names it"),
    label: z.string().describe('The kind in words'),
    task_types: z.array(taskTypeSchema).describe('Task types its imports create'),
    tasks: z.array(importTaskMetaSchema).describe('Its task types, with the words of their results'),
    in_a_sentence: z.string().describe('The kind within a sentence ("QR code addresses")'),
    file_noun: z.string().describe('A file of it, in words ("a QR code addresses file")'),
    checks: z.string().describe('What a check (dry run) of its file does, in words'),
    json_file_as_body: z.boolean().describe('A JSON file goes to upload_path as a JSON array body, not as a multipart file'),
    maps_results: z.boolean().describe('Its results have located addresses a map can show'),
    records_gui_path: z.string().describe('Where the GUI lists what it imports'),
    records_label: z.string().describe('The words of a link there'),
    upload_path: z.string().describe('Where its JSON array or file is imported (POST)'),
    template_path: z.string().describe('Its CSV template (GET)'),
    error_report_path: z.string().describe("A task's excluded rows as CSV or XLSX (GET)"),
    template_file_name: z.string().describe('The name the template downloads as'),
    uses_import_handlers: z.boolean().describe('Whether saved column mappings (org_identifier) apply'),
    columns: z.array(z.string()).describe("Its columns, in the template's order"),
    column_labels: z.record(z.string(), z.string()).describe('Each column in words, as the Imports screen names it beside the column'),
    required_columns: z.array(z.string()).describe('Columns every file must have'),
  })
  .meta({ id: 'ImportKindMeta' });

export const appMetaSchema = z
  .object({
    import_kinds: z.array(z.enum(importKindIds)).describe('What can be imported, each at its own /bulk endpoint'),
    kinds: z.array(importKindMetaSchema).describe('Each import kind: its endpoints, columns and task types'),
    sync_row_cap: z.number().int().describe('Most rows a sync-mode import (processing_mode=sync) takes'),
    max_upload_bytes: z.number().int().describe('Largest accepted upload or JSON import body'),
    appointment_fields: z.array(z.enum(APPOINTMENT_FIELDS)).describe("An appointment import record's fields, in the template's order"),
    events: z.array(eventMetaSchema).describe('The webhook events this server sends, in words'),
  })
  .meta({ id: 'AppMeta' });

const wordOf = (word: ResultWord) => ({ key: word.key, label: word.label, always: word.always === true });

/** The facts a client needs to build its forms: kinds, limits and fields of this server. */
export function registerAppMetaRoutes(api: Api, ctx: AppContext): void {
  api.route(
    {
      method: 'get',
      path: '/api/meta',
      tag: 'Meta',
      summary: "This server's import kinds (endpoints, columns), limits and appointment fields.",
      response: appMetaSchema,
    },
    async () => ({
      import_kinds: [...importKindIds],
      kinds: await Promise.all(
        Object.values(importKinds).map(async (entry) => {
          const kind = await entry.load();
          return {
            id: entry.id,
            label: entry.label,
            task_types: entry.tasks.map((task) => task.type),
            tasks: entry.tasks.map((task) => ({
              type: task.type,
              source: task.source,
              label: task.label,
              counters: task.counters.map(wordOf),
              summary: task.summary.map(wordOf),
              written: [...task.written],
              excluded_count: task.excludedCount,
              excluded_list: task.excludedList,
            })),
            in_a_sentence: entry.inASentence,
            file_noun: entry.fileNoun,
            checks: entry.checks,
            json_file_as_body: entry.jsonFileAsBody,
            maps_results: entry.mapsResults,
            records_gui_path: entry.records.guiPath,
            records_label: entry.records.label,
            upload_path: entry.paths.upload,
            template_path: entry.paths.template,
            error_report_path: entry.paths.errorReport,
            template_file_name: entry.templateFileName,
            uses_import_handlers: entry.usesHandlers,
            columns: [...kind.columns],
            column_labels: { ...kind.columnLabels },
            required_columns: [...kind.requiredColumns],
          };
        }),
      ),
      sync_row_cap: ctx.imports.settings.syncRowCap,
      max_upload_bytes: ctx.imports.settings.maxUploadBytes,
      appointment_fields: [...APPOINTMENT_FIELDS],
      events: eventsMeta(),
    }),
  );
}
