import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';

/**
 * An action (create, delete…) as a TanStack Query mutation: its running state and its last error,
 * shown next to its button. `run` resolves to undefined when the action failed (the error is kept).
 */
export function useApiAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const latest = useRef(action);
  latest.current = action;
  const mutation = useMutation({ mutationFn: (args: A) => latest.current(...args) });
  const run = async (...args: A): Promise<R | undefined> => {
    try {
      return await mutation.mutateAsync(args);
    } catch {
      return undefined;
    }
  };
  return { run, running: mutation.isPending, error: mutation.error as unknown, clearError: mutation.reset };
}
