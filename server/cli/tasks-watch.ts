import { ServiceError } from '../remote/service-client.ts';
import { watchTask } from '../remote/watch-task.ts';
import { StartupError } from '../startup-error.ts';
import { dataDirHelp, type Command } from './command.ts';
import { EXIT } from './exit-codes.ts';
import { clientOptions } from './client-command.ts';
import { connectionHelp, resolveTarget } from './connection.ts';
import { createProgressPrinter, summarise } from './progress.ts';

export const tasksWatchCommand: Command = {
  name: 'tasks watch',
  summary: 'Follow a background task until it ends, polling every 2 to 5 s (backing off on errors).',
  usage: 'tasks watch TASK_UUID [--profile NAME | --url URL --key KEY:SECRET] [--json]',
  allowPositionals: true,
  options: clientOptions,
  help: { ...connectionHelp, json: 'Print the final task object as JSON on stdout', ...dataDirHelp },
  async run(values, positionals) {
    const uuid = positionals[0];
    if (!uuid || positionals.length > 1) throw new StartupError('tasks watch takes one task uuid.');
    const target = await resolveTarget(values);
    const printer = createProgressPrinter();
    try {
      const task = await watchTask(target.client, uuid, {
        onUpdate: (t) => printer.update(t),
        onRetry: (error, delay) => printer.message(`${error.message} Retrying in ${Math.round(delay / 1000)} s.`),
      });
      printer.end();
      process.stderr.write(`${summarise(task)}\n`);
      if (values.json) process.stdout.write(`${JSON.stringify(task, null, 2)}\n`);
      return task.status === 'COMPLETED' ? EXIT.ok : EXIT.notMet;
    } catch (error) {
      printer.end();
      if (error instanceof ServiceError) throw new StartupError(error.message);
      throw error;
    }
  },
};
