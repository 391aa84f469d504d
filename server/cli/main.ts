import { StartupError } from '../startup-error.ts';
import { APP_VERSION } from '../version.ts';
import { commandHelp, parseCommandArgs, type Command } from './command.ts';
import { EXIT } from './exit-codes.ts';
import { endQuietlyOnClosedPipe } from './closed-pipe.ts';

/**
 * Each command's module is loaded only when it runs: `serve` and `import` load the whole server,
 * which other commands (a trigger, a wait, a profile) do not need to start.
 */
const commands: Array<{ name: string; load: () => Promise<Command> }> = [
  { name: 'serve', load: async () => (await import('./serve.ts')).serveCommand },
  { name: 'org create', load: async () => (await import('./org-create.ts')).orgCreateCommand },
  { name: 'import', load: async () => (await import('./import.ts')).importCommand },
  { name: 'decrypt', load: async () => (await import('./decrypt.ts')).decryptCommand },
  { name: 'tasks watch', load: async () => (await import('./tasks-watch.ts')).tasksWatchCommand },
  { name: 'tasks cancel', load: async () => (await import('./tasks-cancel-retry.ts')).tasksCancelCommand },
  { name: 'tasks retry', load: async () => (await import('./tasks-cancel-retry.ts')).tasksRetryCommand },
  { name: 'trigger', load: async () => (await import('./trigger.ts')).triggerCommand },
  { name: 'scenario run', load: async () => (await import('./scenario-run.ts')).scenarioRunCommand },
  { name: 'listen', load: async () => (await import('./listen.ts')).listenCommand },
  { name: 'wait', load: async () => (await import('./wait.ts')).waitCommand },
  { name: 'inbox rules list', load: async () => (await import('./inbox-rules.ts')).inboxRulesListCommand },
  { name: 'inbox rules set', load: async () => (await import('./inbox-rules.ts')).inboxRulesSetCommand },
  { name: 'inbox rules clear', load: async () => (await import('./inbox-rules.ts')).inboxRulesClearCommand },
  { name: 'profile add', load: async () => (await import('./profile.ts')).profileAddCommand },
  { name: 'profile list', load: async () => (await import('./profile.ts')).profileListCommand },
  { name: 'profile remove', load: async () => (await import('./profile.ts')).profileRemoveCommand },
  { name: 'webhooks list', load: async () => (await import('./webhooks.ts')).webhooksListCommand },
  { name: 'webhooks delete', load: async () => (await import('./webhooks.ts')).webhooksDeleteCommand },
  { name: 'deliveries list', load: async () => (await import('./deliveries-list.ts')).deliveriesListCommand },
  { name: 'deliveries redeliver', load: async () => (await import('./deliveries-redeliver.ts')).deliveriesRedeliverCommand },
  { name: 'snapshot save', load: async () => (await import('./snapshot-save.ts')).snapshotSaveCommand },
  { name: 'snapshot restore', load: async () => (await import('./snapshot-restore.ts')).snapshotRestoreCommand },
  { name: 'snapshot list', load: async () => (await import('./snapshot-list.ts')).snapshotListCommand },
  { name: 'snapshot delete', load: async () => (await import('./snapshot-delete.ts')).snapshotDeleteCommand },
  { name: 'reset', load: async () => (await import('./reset.ts')).resetCommand },
];

/** The names the table routes by, in its order. */
export const commandNames = (): string[] => commands.map((c) => c.name);

/** Every command, loaded (for the overview, and for the check that each entry names its command). */
export const loadCommands = (): Promise<Command[]> => Promise.all(commands.map((c) => c.load()));

async function overview(): Promise<string> {
  const loaded = await loadCommands();
  const width = Math.max(...loaded.map((c) => c.name.length)) + 4;
  return [
    `QR Sandbox ${APP_VERSION}: the QR code address service, offline on your machine.`,
    '',
    'Usage: qr-sandbox <command> [options]',
    '',
    'Commands:',
    ...loaded.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Run qr-sandbox <command> --help for its options. Through npm: npm run serve -- [options], npm run cli -- <command> [options].',
  ].join('\n');
}

async function findCommand(args: string[]): Promise<{ command: Command; rest: string[] } | null> {
  for (const entry of commands) {
    const words = entry.name.split(' ');
    if (words.every((word, i) => args[i] === word)) return { command: await entry.load(), rest: args.slice(words.length) };
  }
  return null;
}

/** The words before the first option: a command's or a group's name. */
function leadingWords(args: string[]): string[] {
  const firstOption = args.findIndex((a) => a.startsWith('-'));
  return firstOption === -1 ? args : args.slice(0, firstOption);
}

/** The commands whose names start with these words ("scenario", "inbox rules"), for `<group> --help`. */
async function groupOf(args: string[]): Promise<Command[]> {
  const words = leadingWords(args);
  if (words.length === 0) return [];
  const inGroup = commands.filter((c) => {
    const names = c.name.split(' ');
    return names.length > words.length && words.every((word, i) => names[i] === word);
  });
  return Promise.all(inGroup.map((c) => c.load()));
}

function groupHelp(group: string, members: Command[]): string {
  const width = Math.max(...members.map((c) => c.name.length)) + 4;
  return [
    `Commands of qr-sandbox ${group}:`,
    '',
    ...members.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    `Run qr-sandbox ${group} <command> --help for its options.`,
  ].join('\n');
}

/** Runs one command; returns the exit status. Errors a user can fix are printed without a stack. */
export async function main(args: string[]): Promise<number> {
  endQuietlyOnClosedPipe();
  if (args.length === 0 || args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
    const asked = args.slice(1);
    const found = args[0] === 'help' ? await findCommand(asked) : null;
    const group = found || args[0] !== 'help' ? [] : await groupOf(asked);
    process.stdout.write(
      `${found ? commandHelp(found.command) : group.length > 0 ? groupHelp(asked.join(' '), group) : await overview()}\n`,
    );
    return EXIT.ok;
  }
  if (args[0] === '--version' || args[0] === '-v') {
    process.stdout.write(`${APP_VERSION}\n`);
    return EXIT.ok;
  }
  const found = await findCommand(args);
  if (!found) {
    const group = await groupOf(args);
    const askedHelp = args.includes('--help') || args.includes('-h');
    const words = leadingWords(args).join(' ');
    if (group.length > 0 && askedHelp) {
      process.stdout.write(`${groupHelp(words, group)}\n`);
      return EXIT.ok;
    }
    const listing = group.length > 0 ? groupHelp(words, group) : await overview();
    process.stderr.write(`Unknown command: ${args.join(' ')}\n\n${listing}\n`);
    return EXIT.error;
  }
  try {
    const { values, positionals } = parseCommandArgs(found.command, found.rest);
    if (values.help) {
      process.stdout.write(commandHelp(found.command));
      return EXIT.ok;
    }
    return await found.command.run(values, positionals);
  } catch (error) {
    if (error instanceof StartupError) {
      process.stderr.write(`Error: ${error.message}\n`);
      return EXIT.error;
    }
    throw error;
  }
}
