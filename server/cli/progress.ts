import type { BackgroundTask } from '../tasks/schemas.ts';

const BAR_WIDTH = 24;

export function progressLine(task: BackgroundTask): string {
  const filled = Math.round((Math.min(100, Math.max(0, task.progress)) / 100) * BAR_WIDTH);
  return `${task.status.padEnd(10)} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${task.progress.toFixed(1).padStart(5)}%`;
}

/** On a terminal, one line redrawn in place; elsewhere (CI logs, pipes) a line per change. */
export function createProgressPrinter(stream: NodeJS.WriteStream = process.stderr) {
  let drawn = false;
  return {
    update(task: BackgroundTask) {
      if (stream.isTTY) {
        stream.write(`\r${progressLine(task)}`);
        drawn = true;
      } else stream.write(`${progressLine(task)}\n`);
    },
    message(text: string) {
      stream.write(`${drawn ? '\n' : ''}${text}\n`);
      drawn = false;
    },
    end() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}

/** One line a person can read: the counts of the results, whatever the import kind. */
export function summarise(task: BackgroundTask): string {
  if (task.status === 'FAILED') return `FAILED: ${task.error_message ?? 'no message'}`;
  const counts = Object.entries(task.results ?? {})
    .filter(([, value]) => typeof value === 'number')
    .map(([key, value]) => `${key} ${value}`);
  return `${task.status}${counts.length ? `: ${counts.join(', ')}` : ''}`;
}
