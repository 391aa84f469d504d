import { StartupError } from '../startup-error.ts';
import { APP_VERSION } from '../version.ts';
import { commandHelp, parseCommandArgs, type Command } from './command.ts';

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

/** Runs one command; returns the exit status. Errors a user can fix are printed without a stack. */
export async function main(args: string[]): Promise<number> {
  if (args.length === 0 || args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
    const found = args[0] === 'help' ? await findCommand(args.slice(1)) : null;
    process.stdout.write(`${found ? commandHelp(found.command) : await overview()}\n`);
    return 0;
  }
  if (args[0] === '--version' || args[0] === '-v') {
    process.stdout.write(`${APP_VERSION}\n`);
    return 0;
  }
  const found = await findCommand(args);
  if (!found) {
    process.stderr.write(`Unknown command: ${args.join(' ')}\n\n${await overview()}\n`);
    return 2;
  }
  try {
    const { values, positionals } = parseCommandArgs(found.command, found.rest);
    if (values.help) {
      process.stdout.write(commandHelp(found.command));
      return 0;
    }
    return await found.command.run(values, positionals);
  } catch (error) {
    if (error instanceof StartupError) {
      process.stderr.write(`Error: ${error.message}\n`);
      return found.command.errorExitStatus ?? 1;
    }
    throw error;
  }
}
