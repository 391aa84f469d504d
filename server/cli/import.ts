import fs from 'node:fs';
import path from 'node:path';
import { type ServiceClient, ServiceError } from '../remote/service-client.ts';
import { importKindIdsInWords, importKinds, importTasks, isImportKindId } from '../imports/kinds.ts';
import { importKindIds } from '../imports/schemas.ts';
import type { ImportKindId } from '../imports/schemas.ts';
import { downloadErrorReport, uploadImport } from '../remote/upload-import.ts';
import { watchTask } from '../remote/watch-task.ts';
import { StartupError } from '../startup-error.ts';
import { dataDirHelp, dataDirOption, type Command } from './command.ts';
import { EXIT } from './exit-codes.ts';
import { connectionHelp, connectionOptions, organizationOf, resolveTarget } from './connection.ts';
import { createProgressPrinter, summarise } from './progress.ts';
import { countOf } from '../../common/count-words.ts';

/** Where results say how many rows were excluded (a count, else a list), and where they list them: every task type's keys. */
const EXCLUDED_KEYS = [...new Set(importTasks.flatMap((task) => [task.excludedCount, task.excludedList]))];
const EXCLUDED_LISTS = [...new Set(importTasks.map((task) => task.excludedList))];

function excludedCount(results: Record<string, unknown> | null): number {
  if (!results) return 0;
  for (const key of EXCLUDED_KEYS) {
    const value = results[key];
    if (typeof value === 'number') return value;
    if (Array.isArray(value)) return value.length;
  }
  return 0;
}

/** The import's error report saved next to the file, when it excluded rows (a sync import of a service that names no task has none). */
async function saveErrorReport(
  client: ServiceClient,
  kind: ImportKindId,
  taskUuid: string | null,
  results: Record<string, unknown> | null,
  file: string,
): Promise<void> {
  if (excludedCount(results) === 0) return;
  if (taskUuid === null) {
    process.stderr.write(
      'The service named no task for this sync import, so there is no error report to save; the excluded rows are in the answer.\n',
    );
    return;
  }
  const report = await downloadErrorReport(client, kind, taskUuid, file);
  process.stderr.write(`The excluded rows and their reasons are in ${report}. Fix them there and import that file.\n`);
}

const LISTED_ROWS = 10;

/**
 * The first excluded rows, each by its row in the file (row_number, with the sheet's name where the
 * workbook has several; a service that sends only the index is quoted as such).
 */
export function excludedRowLines(results: Record<string, unknown>): string {
  const list = EXCLUDED_LISTS.map((key) => results[key]).find(Array.isArray) ?? [];
  const sheet = typeof results.sheet === 'string' ? ` of sheet ${results.sheet}` : '';
  const lines = list.slice(0, LISTED_ROWS).map((item: unknown) => {
    const entry = (item ?? {}) as Record<string, unknown>;
    const where = typeof entry.row_number === 'number' ? `Row ${entry.row_number}${sheet}` : `Data row at index ${String(entry.index)}`;
    return `  ${where}: ${String(entry.error ?? entry.error_message ?? '')}\n`;
  });
  const more = list.length > LISTED_ROWS ? `  … ${countOf(list.length - LISTED_ROWS, 'more row')} listed in the results.\n` : '';
  return lines.join('') + more;
}

export const importCommand: Command = {
  name: 'import',
  summary:
    'Send an import file (CSV, XLSX or JSON; the sandbox also reads XLS and ODS) to the sandbox or a real service, follow its task, fetch its error report.',
  usage: `import FILE --type ${importKindIds.join('|')} [--profile NAME] [--sync] [--org-identifier SLUG] [--dry-run]`,
  allowPositionals: true,
  options: {
    type: { type: 'string' },
    sync: { type: 'boolean' },
    'org-identifier': { type: 'string' },
    'dry-run': { type: 'boolean' },
    'no-watch': { type: 'boolean' },
    ...connectionOptions,
    ...dataDirOption,
  },
  help: {
    type: Object.values(importKinds)
      .map((entry) => `${entry.id} (${entry.inASentence})`)
      .join(', '),
    sync: 'Wait for the whole result in one answer instead of a background task',
    'org-identifier': 'Import handler (column mapping) to read the file with. Default: default',
    'dry-run': 'Check the file on the local sandbox (validation, addresses, services, times) without writing anything; not with --profile',
    'no-watch': 'Print the task uuid and return without following the task',
    ...connectionHelp,
    ...dataDirHelp,
  },
  async run(values, positionals) {
    const given = positionals[0];
    if (!given || positionals.length > 1) throw new StartupError('import takes one FILE.');
    const kind = String(values.type);
    if (!isImportKindId(kind)) throw new StartupError(`import needs ${importKindIdsInWords('or', '--type ')}.`);
    if (typeof values['org-identifier'] === 'string' && !importKinds[kind].usesHandlers) {
      throw new StartupError(
        `--org-identifier names an import handler, which only ${Object.values(importKinds)
          .filter((entry) => entry.usesHandlers)
          .map((entry) => `--type ${entry.id}`)
          .join(' and ')} reads; the ${importKinds[kind].label} import takes none.`,
      );
    }
    const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
    if (!fs.existsSync(file)) throw new StartupError(`No such file: ${file}`);
    if (values['dry-run'] && typeof values.profile === 'string') {
      throw new StartupError(
        "--dry-run checks a file on the local sandbox; a real service's API has no dry run and would import it for real. " +
          'Check it without --profile, then send it with --profile.',
      );
    }
    const target = await resolveTarget(values);
    const organizationUuid = await organizationOf(target);
    const printer = createProgressPrinter();
    try {
      process.stderr.write(`Sending ${path.basename(file)} to ${target.label}...\n`);
      const answer = await uploadImport(target.client, {
        kind,
        file,
        organizationUuid,
        processingMode: values.sync ? 'sync' : 'background',
        ...(typeof values['org-identifier'] === 'string' ? { orgIdentifier: values['org-identifier'] } : {}),
        ...(values['dry-run'] ? { dryRun: true } : {}),
      });
      if ('result' in answer) {
        process.stdout.write(`${JSON.stringify(answer.result, null, 2)}\n`);
        if (answer.result.dry_run === true) {
          const notes = Array.isArray(answer.result.dry_run_notes)
            ? answer.result.dry_run_notes.map((note) => `  - ${String(note)}\n`).join('')
            : '';
          process.stderr.write(`Checked, nothing written. Rows that would be excluded: ${excludedCount(answer.result)}.\n${notes}`);
        } else {
          process.stderr.write(`Done. Excluded rows: ${excludedCount(answer.result)}.\n`);
          await saveErrorReport(target.client, kind, answer.taskUuid, answer.result, file);
        }
        process.stderr.write(excludedRowLines(answer.result));
        return 0;
      }
      const uuid = answer.accepted.background_task_uuid;
      process.stderr.write(`Background task ${uuid} started.\n`);
      if (values['no-watch']) {
        process.stdout.write(`${uuid}\n`);
        return 0;
      }
      const task = await watchTask(target.client, uuid, {
        onUpdate: (t) => printer.update(t),
        onRetry: (error, delay) => printer.message(`${error.message} Retrying in ${Math.round(delay / 1000)} s.`),
      });
      printer.end();
      process.stderr.write(`${summarise(task)}\n`);
      if (task.status === 'COMPLETED') {
        await saveErrorReport(target.client, kind, uuid, task.results, file);
        if (task.results) process.stderr.write(excludedRowLines(task.results));
      }
      process.stdout.write(`${JSON.stringify(task, null, 2)}\n`);
      return task.status === 'COMPLETED' ? EXIT.ok : EXIT.notMet;
    } catch (error) {
      printer.end();
      if (error instanceof ServiceError) throw new StartupError(error.message);
      throw error;
    }
  },
};
