import path from 'node:path';

export class DesktopArgsError extends Error {}

/**
 * The data folder: `--data-dir DIR` (or `--data-dir=DIR`) from the command line, relative to the
 * working directory, else `data` inside Electron's userData folder.
 */
export function resolveDataDir(argv: readonly string[], userDataDir: string, cwd: string): string {
  let chosen: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--data-dir') {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--') || value === '')
        throw new DesktopArgsError('--data-dir needs a folder, e.g. --data-dir ~/qr-demo');
      chosen = value;
      i++;
    } else if (arg?.startsWith('--data-dir=')) {
      chosen = arg.slice('--data-dir='.length);
      if (chosen === '') throw new DesktopArgsError('--data-dir needs a folder, e.g. --data-dir=~/qr-demo');
    }
  }
  return chosen === undefined ? path.join(userDataDir, 'data') : path.resolve(cwd, chosen);
}
