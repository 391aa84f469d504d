/** The signals that end a long-running command (serve, listen): Ctrl+C, kill, a closed terminal. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/**
 * Resolves with the first stop signal's name. Later ones are ignored until dispose(): a signal often
 * comes twice (from the terminal to the whole process group, and passed on by npm or bin/qr-sandbox.mjs),
 * and the second must not kill the process in the middle of its clean-up.
 */
export function stopSignal(): { stopped: Promise<StopSignal>; dispose(): void } {
  let resolveStop: (signal: StopSignal) => void = () => {};
  const stopped = new Promise<StopSignal>((resolve) => (resolveStop = resolve));
  const handlers = STOP_SIGNALS.map((signal) => {
    const handler = () => resolveStop(signal);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return {
    stopped,
    dispose: () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
}
