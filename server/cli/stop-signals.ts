/** The signals that end a long-running command (serve, listen): Ctrl+C, kill, a closed terminal. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** A signal's name, or `parent ended`: the process that started this one is gone. */
export type StopReason = (typeof STOP_SIGNALS)[number] | 'parent ended';

/** How often a command that follows its parent checks it is still there. */
const PARENT_CHECK_MS = 1000;

/**
 * Resolves with the first stop signal's name. Later ones are ignored until dispose(): a signal often
 * comes twice (from the terminal to the whole process group, and passed on by npm or bin/qr-sandbox.mjs),
 * and the second must not kill the process in the middle of its clean-up.
 *
 * With `followParent`, the end of the parent process stops it too: `npx` and `npm run` start a
 * command through `sh -c`, which does not pass on the SIGTERM npm forwards to it, but ends.
 */
export function stopSignal(options: { followParent?: boolean } = {}): { stopped: Promise<StopReason>; dispose(): void } {
  let resolveStop: (reason: StopReason) => void = () => {};
  const stopped = new Promise<StopReason>((resolve) => (resolveStop = resolve));
  const handlers = STOP_SIGNALS.map((signal) => {
    const handler = () => resolveStop(signal);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  const parent = process.ppid;
  const watch = options.followParent
    ? setInterval(() => {
        if (process.ppid !== parent) resolveStop('parent ended');
      }, PARENT_CHECK_MS).unref()
    : null;
  return {
    stopped,
    dispose: () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      if (watch) clearInterval(watch);
    },
  };
}
