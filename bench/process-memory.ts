import fs from 'node:fs';
import { childPids } from '../test/support/processes.ts';

/** Resident memory of one process now, in kB (0 when it is gone). */
function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** A process and all its descendants (the server, its import workers and upload readers). */
function tree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childPids(all[i]));
  return all;
}

export interface TreeMemory {
  /** Highest sum of the resident memory of the process and all its descendants at one sample, MB. */
  peakMb: number;
  /** Each process's own highest resident memory over the samples, MB, by role: the first is the root. */
  peakByProcessMb: number[];
  /** Each process's resident memory at the peak's sample, MB, in the order of peakByProcessMb (0: not alive then). */
  atPeakMb: number[];
  /** Seconds from the start of sampling to the peak's sample. */
  peakAtSeconds: number;
  /** Most processes alive at one sample. */
  processes: number;
  samples: number;
}

const mb = (kb: number) => Math.round(kb / 102.4) / 10;

/**
 * Samples the resident memory (RSS, from /proc) of a process tree every `everyMs` until stop():
 * the peak of the sum over all its processes, as a field admin's laptop carries it. RSS counts
 * the pages a process shares with others (the node binary) in each, so the sum overstates a little.
 */
export function sampleTreeMemory(pid: number, everyMs = 100): { stop(): TreeMemory } {
  let peak = 0;
  let processes = 0;
  let samples = 0;
  let atPeak = new Map<number, number>();
  let peakAt = 0;
  const started = performance.now();
  const byPid = new Map<number, number>();
  const sample = () => {
    const pids = tree(pid);
    let sum = 0;
    const now = new Map<number, number>();
    for (const p of pids) {
      const kb = rssKb(p);
      sum += kb;
      now.set(p, kb);
      byPid.set(p, Math.max(byPid.get(p) ?? 0, kb));
    }
    if (sum > peak) {
      peak = sum;
      atPeak = now;
      peakAt = performance.now() - started;
    }
    processes = Math.max(processes, pids.length);
    samples++;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return {
        peakMb: mb(peak),
        peakByProcessMb: [...byPid.values()].map(mb),
        atPeakMb: [...byPid.keys()].map((p) => mb(atPeak.get(p) ?? 0)),
        peakAtSeconds: Math.round(peakAt / 100) / 10,
        processes,
        samples,
      };
    },
  };
}
