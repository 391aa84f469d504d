import { ServiceError } from '../remote/service-client.ts';
import { StartupError } from '../startup-error.ts';
import { dataDirHelp, dataDirOption, type Command, type Values } from './command.ts';
import { connectionHelp, connectionOptions, resolveTarget } from './connection.ts';

interface TaskAnswer {
  uuid: string;
  status: string;
  error_message: string | null;
}

/** POSTs a task action; prints a line (or the answer as JSON) and says what to do next. */
async function taskAction(values: Values, positionals: string[], action: 'cancel' | 'retry'): Promise<number> {
  const uuid = positionals[0];
  if (!uuid || positionals.length > 1) throw new StartupError(`tasks ${action} takes one task uuid.`);
  const target = await resolveTarget(values);
  let answer: Record<string, unknown>;
  try {
    answer = await target.client.json(`/api/background-tasks/uuid/${encodeURIComponent(uuid)}/${action}`, { method: 'POST' });
  } catch (error) {
    if (error instanceof ServiceError) throw new StartupError(error.message);
    throw error;
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    return 0;
  }
  if (action === 'retry') {
    const retry = String(answer.background_task_uuid);
    process.stdout.write(`Retrying task ${uuid} as task ${retry}. Follow it with: qr-sandbox tasks watch ${retry}\n`);
    return 0;
  }
  const task = answer as unknown as TaskAnswer;
  process.stdout.write(
    task.status === 'FAILED'
      ? `Cancelled task ${uuid}: ${task.error_message ?? ''}\n`
      : `Cancelling task ${uuid}: it stops after the batch it is writing. Follow it with: qr-sandbox tasks watch ${uuid}\n`,
  );
  return 0;
}

const options = { ...connectionOptions, json: { type: 'boolean' as const }, ...dataDirOption };
const help = { ...connectionHelp, json: 'Print the answer as one JSON object', ...dataDirHelp };

export const tasksCancelCommand: Command = {
  name: 'tasks cancel',
  summary: 'Cancel a queued or running import: it stops after its current batch; rows already written stay.',
  usage: 'tasks cancel TASK_UUID [--data-dir DIR | --profile NAME | --url URL --key KEY:SECRET] [--json]',
  allowPositionals: true,
  options,
  help,
  run: (values, positionals) => taskAction(values, positionals, 'cancel'),
};

export const tasksRetryCommand: Command = {
  name: 'tasks retry',
  summary: 'Run a failed import again from its kept upload, as a new task.',
  usage: 'tasks retry TASK_UUID [--data-dir DIR | --profile NAME | --url URL --key KEY:SECRET] [--json]',
  allowPositionals: true,
  options,
  help,
  run: (values, positionals) => taskAction(values, positionals, 'retry'),
};
