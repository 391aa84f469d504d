import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { StartupError } from '../startup-error.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Command {
  /** e.g. "serve" or "org create" */
  name: string;
  summary: string;
  usage: string;
  /** Each option's help line, keyed by option name. */
  help: Record<string, string>;
  options: Options;
  allowPositionals?: boolean;
  /** Shell lines shown under "Examples:" in --help. */
  examples?: string[];
  run(values: Values, positionals: string[]): Promise<number>;
}

export const DEFAULT_DATA_DIR = '.qr-sandbox';

export const dataDirOption: Options = { 'data-dir': { type: 'string' } };
export const dataDirHelp = { 'data-dir': `Data folder (database, uploads, logs). Default ./${DEFAULT_DATA_DIR}` };

/** Relative paths are read from the folder the user ran npm in, not the package folder npm switches to. */
export function resolveDataDir(values: Values): string {
  const given = typeof values['data-dir'] === 'string' ? values['data-dir'] : DEFAULT_DATA_DIR;
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
}

export function commandHelp(command: Command): string {
  const width = Math.max(...Object.keys(command.help).map((k) => k.length + (command.options[k]?.type === 'string' ? 6 : 0)), 4) + 4;
  const lines = Object.entries(command.help).map(([name, text]) => {
    const flag = `--${name}${command.options[name]?.type === 'string' ? ' VALUE' : ''}`;
    return `  ${flag.padEnd(width)}${text}`;
  });
  const examples = command.examples?.length ? `\nExamples:\n${command.examples.map((e) => `  ${e}`).join('\n')}\n` : '';
  return `${command.summary}\n\nUsage: qr-sandbox ${command.usage}\n\nOptions:\n${lines.join('\n')}\n  ${'--help'.padEnd(width)}Show this help\n${examples}`;
}

export function parseCommandArgs(command: Command, args: string[]) {
  try {
    return parseArgs({
      args,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: command.allowPositionals ?? false,
      strict: true,
    });
  } catch (error) {
    throw new StartupError(`${(error as Error).message}\nRun qr-sandbox ${command.name} --help for the options.`);
  }
}
