import { ServiceError } from '../remote/service-client.ts';
import { StartupError } from '../startup-error.ts';
import type { Target } from './connection.ts';

/** A JSON request to the target's API; a failure becomes the error line the command prints (exit 2). */
export async function callApi<T>(target: Target, pathname: string, init?: { method?: string; body?: unknown }): Promise<T | undefined> {
  try {
    const res = await target.client.request(pathname, {
      method: init?.method ?? 'GET',
      ...(init?.body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) }),
    });
    const text = await res.text();
    return text ? (JSON.parse(text) as T) : undefined;
  } catch (error) {
    if (error instanceof ServiceError) throw new StartupError(error.message);
    throw error;
  }
}

export async function callApiFor<T>(target: Target, pathname: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const answer = await callApi<T>(target, pathname, init);
  if (answer === undefined) throw new StartupError(`${target.label} answered ${pathname} with an empty body.`);
  return answer;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** --since: an ISO 8601 time, or a duration back from now such as 30m, 2h, 1d. */
export function sinceTime(value: string | boolean | string[] | undefined, now = Date.now()): string | undefined {
  if (typeof value !== 'string') return undefined;
  const relative = /^(\d+)([smhd])$/.exec(value.trim());
  if (relative) return new Date(now - Number(relative[1]) * (UNITS[relative[2] ?? 's'] ?? 1000)).toISOString();
  if (Number.isNaN(Date.parse(value))) {
    throw new StartupError(
      `--since must be an ISO 8601 time (2026-11-28T09:00:00Z) or a duration back from now (30m, 2h, 1d), not "${value}".`,
    );
  }
  return new Date(value).toISOString();
}

/** Prints rows as a table with aligned columns. */
export function printTable(headers: string[], rows: string[][], out: (text: string) => void = (t) => process.stdout.write(t)): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')}\n`;
  out(line(headers));
  for (const row of rows) out(line(row));
}

/** A list as a command prints it: with --json one JSON object a line, otherwise a table, or `empty` on stderr when there is none. */
export function printList<T>(items: T[], json: unknown, empty: string, table: { headers: string[]; row: (item: T) => string[] }): void {
  if (json) for (const item of items) process.stdout.write(`${JSON.stringify(item)}\n`);
  else if (items.length === 0) process.stderr.write(`${empty}\n`);
  else printTable(table.headers, items.map(table.row));
}
