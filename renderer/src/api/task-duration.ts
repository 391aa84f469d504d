/** "850 ms", "12 s", "3 min 05 s", "1 h 02 min": how long a task ran (or has been running). */
export function formatElapsed(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = Math.floor(ms / 1_000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** From creation to the last update (the end, once finished), or to now while it runs. */
export function taskElapsedMs(task: { created_on: string; updated_on: string }, running: boolean, now: number): number {
  const start = Date.parse(task.created_on);
  const end = running ? now : Date.parse(task.updated_on);
  return Math.max(0, end - start);
}
