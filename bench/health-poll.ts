import { percentile, round, type ChildServer } from './support.ts';

export interface HealthPoll {
  count: number;
  failed: number;
  said_disk_full: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

/** Polls /api/health back to back (25 ms apart) until the answered stop is called: latencies, failures, and how often it said disk_full. */
export function pollHealth(server: ChildServer): () => Promise<HealthPoll> {
  const latencies: number[] = [];
  let failed = 0;
  let saidFull = 0;
  let stop = false;
  const done = (async () => {
    while (!stop) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(30_000) });
        const body = (await res.json()) as { disk_full?: boolean };
        if (res.status !== 200) failed++;
        if (body.disk_full) saidFull++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return async () => {
    stop = true;
    await done;
    return {
      count: latencies.length,
      failed,
      said_disk_full: saidFull,
      p50_ms: round(percentile(latencies, 50)),
      p99_ms: round(percentile(latencies, 99)),
      max_ms: round(Math.max(...latencies, 0)),
    };
  };
}
