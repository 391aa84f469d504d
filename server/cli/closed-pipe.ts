import { EXIT } from './exit-codes.ts';

/**
 * A reader that stops early (`| head`, `| jq` that exits) closes the pipe: the next write fails with
 * EPIPE. That is the reader's choice, not a failure: end quietly, as Unix tools do. A command that
 * cleans up on a stop signal (listen, serve) is stopped as by SIGTERM, so it still cleans up.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      if (process.listenerCount('SIGTERM') > 0) process.emit('SIGTERM', 'SIGTERM');
      else process.exit(EXIT.ok);
    });
  }
}
