/** What every command that talks to a running server shares: finding it, --json, exit statuses, failures in plain words. */
import fs from 'node:fs';
import path from 'node:path';
import { ServiceError, type ServiceClient } from '../remote/service-client.ts';
import { StartupError } from '../startup-error.ts';
import { dataDirHelp, dataDirOption, type Options, type Values } from './command.ts';
import { connectionHelp, connectionOptions } from './connection.ts';

export const clientOptions: Options = { ...connectionOptions, json: { type: 'boolean' }, ...dataDirOption };
export const clientHelp: Record<string, string> = {
  ...connectionHelp,
  json: 'One JSON object per line on stdout (for jq); messages for people go to stderr',
  ...dataDirHelp,
  'data-dir': 'Data folder of the running server to talk to (its URL and credential are read there). Default ./.qr-sandbox',
};

/** One result: a JSON line with --json, a line of text otherwise. */
export function emit(values: Values, json: Record<string, unknown>, text: string): void {
  process.stdout.write(`${values.json ? JSON.stringify(json) : text}\n`);
}

/** A request whose failure becomes a message for the user (a ServiceError already says what went wrong). */
export async function call<T>(
  client: ServiceClient,
  pathname: string,
  init?: RequestInit & { json?: unknown },
  timeoutMs?: number,
): Promise<T> {
  const { json, ...rest } = init ?? {};
  const request: RequestInit =
    json === undefined ? rest : { ...rest, body: JSON.stringify(json), headers: { 'content-type': 'application/json', ...rest.headers } };
  try {
    const res = await client.request(pathname, request, timeoutMs);
    return (res.status === 204 ? undefined : await res.json()) as T;
  } catch (error) {
    if (error instanceof ServiceError) throw new StartupError(error.message);
    throw error;
  }
}

/** A positive whole number option, or its default. */
export function countOption(values: Values, name: string, fallback: number, max = 1000): number {
  const given = values[name];
  if (given === undefined) return fallback;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new StartupError(`--${name} must be a whole number from 1 to ${max}, not "${String(given)}".`);
  return n;
}

/** A JSON file the user named, parsed; a message naming the file and the problem otherwise. */
export function readJsonFile(given: string, what: string): unknown {
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new StartupError(`Cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new StartupError(`${what} ${file} is not valid JSON: ${(error as Error).message}. Fix the file and run again.`);
  }
}
