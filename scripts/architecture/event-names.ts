/**
 * Architecture rule: no code branches on a webhook event by its name outside the event's definition
 * (a file calling defineWebhookEvent) and the registry (server/webhook-events/). A comparison with an
 * event's type (`type === 'service_confirmation.check_out'`), a `case` label or an object key of one
 * is a place a new event would silently miss: read the definition (eventDefinition(type)) instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventTypes } from '../../server/webhook-events/registry.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AREAS = ['server', 'renderer/src', 'common', 'main', 'preload'];
const REGISTRY = 'server/webhook-events/';
const DEFINES = /\bdefineWebhookEvent\(/;

const quoted = (name: string) => `['"\`]${name.replaceAll('.', '\\.')}['"\`]`;
/** `=== 'type'`, `'type' !==`, `case 'type':`, `{ 'type': … }`. */
function branchPattern(names: readonly string[]): RegExp {
  const name = `(?:${names.map(quoted).join('|')})`;
  return new RegExp(`(?:[!=]==?\\s*${name})|(?:${name}\\s*[!=]==?)|(?:\\bcase\\s+${name})|(?:${name}\\s*:)`);
}

/** "file:line branches on the event name …" for each offending line of the given files (path → text). */
export function eventNameViolations(files: ReadonlyMap<string, string>, names: readonly string[] = eventTypes): string[] {
  const pattern = branchPattern(names);
  const found: string[] = [];
  for (const [file, text] of files) {
    if (file.startsWith(REGISTRY) || DEFINES.test(text)) continue;
    text.split('\n').forEach((line, index) => {
      const match = pattern.exec(line);
      if (match) {
        found.push(
          `${file}:${index + 1} branches on the event name ${match[0].trim()} (read the event's definition from ${REGISTRY}registry.ts)`,
        );
      }
    });
  }
  return found;
}

function sourceFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const area of AREAS) {
    const full = path.join(ROOT, area);
    if (!fs.existsSync(full)) continue;
    for (const entry of fs.readdirSync(full, { withFileTypes: true, recursive: true })) {
      const file = path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (entry.isFile() && !file.includes('node_modules/') && !file.endsWith('.d.ts') && /\.(ts|tsx|mts|mjs)$/.test(entry.name)) {
        files.set(file, fs.readFileSync(path.join(ROOT, file), 'utf8'));
      }
    }
  }
  return files;
}

/** The rule over the real tree (check-architecture.ts runs it). */
export const eventNameProblems = (): string[] => eventNameViolations(sourceFiles());
