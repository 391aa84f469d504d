import fs from 'node:fs';
import { childPids } from '../test/support/processes.ts';

/** Linux /proc readings of the benchmarks' processes (clock ticks of 1/100 s). */

/** The fields of /proc/<pid>/stat after the command name (state is [0], utime [11], stime [12], cutime [13], cstime [14]). */
function statFields(pid: number | undefined): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

const ticks = (fields: string[], from: number) => Number(fields[from]) + Number(fields[from + 1]);

/** CPU seconds (user + system, every thread) a process has used so far; NaN when it is gone. */
export function processCpuSeconds(pid: number | undefined): number {
  try {
    return ticks(statFields(pid), 11) / 100;
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds of a process and its live children, all threads, plus children that ended and were
 * waited for; `children` is the children's part.
 */
export function treeCpuSeconds(pid: number | undefined): { total: number; children: number } {
  const own = statFields(pid);
  let children = ticks(own, 13);
  for (const child of childPids(pid)) {
    const fields = statFields(child);
    children += ticks(fields, 11) + ticks(fields, 13);
  }
  return { total: (ticks(own, 11) + children) / 100, children: children / 100 };
}

/** Peak resident memory of a process, MB to one decimal. */
export function peakRssMbOf(pid: number): number {
  const kb = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return Math.round(kb / 102.4) / 10;
}
