import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';

/**
 * An action (create, delete…) as a TanStack Query mutation: its running state and its last error,
 * shown next to its button. `run` resolves to undefined when the action failed (the error is kept).
 */
export function useApiAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const latest = useRef(action);
  latest.current = action;
  const mutation = useMutation({ mutationFn: (args: A) => latest.current(...args) });
  // Set in the click's own render (the mutation's state follows a tick later), so a switch moves at once.
  const [running, setRunning] = useState(false);
  const run = async (...args: A): Promise<R | undefined> => {
    setRunning(true);
    try {
      return await mutation.mutateAsync(args);
    } catch {
      return undefined;
    } finally {
      setRunning(false);
    }
  };
  return { run, running, error: mutation.error as unknown, clearError: mutation.reset };
}
