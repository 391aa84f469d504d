import { StartupError } from '../startup-error.ts';
import { APP_VERSION } from '../version.ts';
import { commandHelp, parseCommandArgs, type Command } from './command.ts';
import { importCommand } from './import.ts';
import { inboxRulesClearCommand, inboxRulesListCommand, inboxRulesSetCommand } from './inbox-rules.ts';
import { listenCommand } from './listen.ts';
import { scenarioRunCommand } from './scenario-run.ts';
import { triggerCommand } from './trigger.ts';
import { waitCommand } from './wait.ts';
import { decryptCommand } from './decrypt.ts';
import { orgCreateCommand } from './org-create.ts';
import { profileAddCommand, profileListCommand, profileRemoveCommand } from './profile.ts';
import { serveCommand } from './serve.ts';
import { tasksCancelCommand, tasksRetryCommand } from './tasks-cancel-retry.ts';
import { deliveriesListCommand } from './deliveries-list.ts';
import { deliveriesRedeliverCommand } from './deliveries-redeliver.ts';
import { resetCommand } from './reset.ts';
import { snapshotDeleteCommand } from './snapshot-delete.ts';
import { snapshotListCommand } from './snapshot-list.ts';
import { snapshotRestoreCommand } from './snapshot-restore.ts';
import { snapshotSaveCommand } from './snapshot-save.ts';
import { tasksWatchCommand } from './tasks-watch.ts';

const commands: Command[] = [
  serveCommand,
  orgCreateCommand,
  importCommand,
  decryptCommand,
  tasksWatchCommand,
  tasksCancelCommand,
  tasksRetryCommand,
  triggerCommand,
  scenarioRunCommand,
  listenCommand,
  waitCommand,
  inboxRulesListCommand,
  inboxRulesSetCommand,
  inboxRulesClearCommand,
  profileAddCommand,
  profileListCommand,
  profileRemoveCommand,
  deliveriesListCommand,
  deliveriesRedeliverCommand,
  snapshotSaveCommand,
  snapshotRestoreCommand,
  snapshotListCommand,
  snapshotDeleteCommand,
  resetCommand,
];

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 4;
  return [
    `QR Sandbox ${APP_VERSION}: the QR code address service, offline on your machine.`,
    '',
    'Usage: qr-sandbox <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Run qr-sandbox <command> --help for its options. Through npm: npm run serve -- [options], npm run cli -- <command> [options].',
  ].join('\n');
}

function findCommand(args: string[]): { command: Command; rest: string[] } | null {
  for (const command of commands) {
    const words = command.name.split(' ');
    if (words.every((word, i) => args[i] === word)) return { command, rest: args.slice(words.length) };
  }
  return null;
}

/** Runs one command; returns the exit status. Errors a user can fix are printed without a stack. */
export async function main(args: string[]): Promise<number> {
  if (args.length === 0 || args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
    const found = args[0] === 'help' ? findCommand(args.slice(1)) : null;
    process.stdout.write(`${found ? commandHelp(found.command) : overview()}\n`);
    return 0;
  }
  if (args[0] === '--version' || args[0] === '-v') {
    process.stdout.write(`${APP_VERSION}\n`);
    return 0;
  }
  const found = findCommand(args);
  if (!found) {
    process.stderr.write(`Unknown command: ${args.join(' ')}\n\n${overview()}\n`);
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
