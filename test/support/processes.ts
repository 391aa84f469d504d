import fs from 'node:fs';

/** A process's children (a server's import workers and upload readers), from /proc. */
export function childPids(pid: number | undefined): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(pid)) children.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return children;
}

/** A process's command line, its arguments in order ([] once it has ended). */
export function commandLine(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** A process's environment ({} once it has ended). */
export function environment(pid: number): Record<string, string> {
  try {
    const entries = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
    return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
  } catch {
    return {};
  }
}
