/**
 * The shell examples of a docs page, as test/docs/runnable-examples.test.ts runs them. The
 * convention (docs/development.md, "Docs that run"):
 *
 * - every ```sh or ```bash block is a script, run whole with `set -euo pipefail`; when the next
 *   block after it is ```text, that is what the script prints on stdout;
 * - every ```console block is a terminal transcript: each `$ ` line (with the lines that continue it:
 *   after a trailing `\`, `|` or `&&`, or while a quote is open) is a command, and the lines up to the next `$ ` are what it prints, stdout and stderr together;
 * - a block right after `<!-- not run: REASON -->` is not run (the reason is required);
 * - a block without a language that starts with `$ ` is a mistake (it must be ```console).
 */

export interface DocUnit {
  /** Line of the page the unit starts on (1-based). */
  line: number;
  /** A whole ```sh block, or one command of a ```console transcript. */
  kind: 'script' | 'command';
  code: string;
  /** What it must print (stdout of a script, stdout and stderr of a command); null: not compared. */
  expected: string | null;
}

export interface SkippedBlock {
  line: number;
  reason: string;
}

export interface PageExamples {
  units: DocUnit[];
  skipped: SkippedBlock[];
  /** Blocks that break the convention, each a sentence naming its line. */
  mistakes: string[];
}

interface Fence {
  line: number;
  lang: string;
  body: string[];
  /** Index of the line after the closing fence. */
  end: number;
}

const OPEN = /^( {0,3})(`{3,})\s*([\w-]*)/;

function fences(lines: string[]): Fence[] {
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i] ?? '');
    if (!open) continue;
    const indent = open[1]?.length ?? 0;
    const ticks = open[2] ?? '```';
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] ?? '';
      if (/^ {0,3}`{3,}\s*$/.test(line) && line.trim().length >= ticks.length) break;
      body.push(line.slice(Math.min(indent, line.length - line.trimStart().length)));
    }
    found.push({ line: i + 1, lang: (open[3] ?? '').toLowerCase(), body, end: j + 1 });
    i = j;
  }
  return found;
}

/** The HTML comment on the last non-blank line before the fence, if any. */
function commentBefore(lines: string[], fenceLine: number): string | null {
  for (let i = fenceLine - 2; i >= 0; i--) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    return /^<!--([\s\S]*)-->$/.exec(line)?.[1]?.trim() ?? null;
  }
  return null;
}

/** Whether a command goes on on the next line: a trailing `\\`, `|` or `&&`, or a quote still open (comments aside). */
function continues(code: string): boolean {
  if (/(\\|\||&&)\s*$/.test(code)) return true;
  let quote: string | null = null;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') i++;
    else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(code[i - 1] ?? ''))) {
      const end = code.indexOf('\n', i);
      if (end === -1) break;
      i = end;
    }
  }
  return quote !== null;
}

/** Splits a transcript into its commands and what each printed. */
function transcript(fence: Fence, mistakes: string[]): DocUnit[] {
  const units: DocUnit[] = [];
  let current: { line: number; code: string[]; output: string[]; open: boolean } | null = null;
  const flush = () => {
    if (!current) return;
    const output = [...current.output];
    while (output.length > 0 && output.at(-1)?.trim() === '') output.pop();
    units.push({ line: current.line, kind: 'command', code: current.code.join('\n'), expected: output.join('\n') });
  };
  fence.body.forEach((line, index) => {
    if (current?.open) {
      current.code.push(line);
      current.open = continues(current.code.join('\n'));
    } else if (line.startsWith('$ ')) {
      flush();
      current = { line: fence.line + 1 + index, code: [line.slice(2)], output: [], open: continues(line.slice(2)) };
    } else if (current) current.output.push(line);
    else if (line.trim() !== '') mistakes.push(`line ${fence.line + 1 + index}: a console block starts with a "$ " command`);
  });
  flush();
  return units;
}

export function pageExamples(text: string): PageExamples {
  const lines = text.split('\n');
  const all = fences(lines);
  const result: PageExamples = { units: [], skipped: [], mistakes: [] };
  const used = new Set<Fence>();
  for (const [index, fence] of all.entries()) {
    if (used.has(fence)) continue;
    const runnable = ['sh', 'bash', 'console'].includes(fence.lang);
    if (fence.lang === '' && fence.body[0]?.startsWith('$ ')) {
      result.mistakes.push(`line ${fence.line}: a transcript ("$ " lines) must be a \`\`\`console block, so that it is run`);
      continue;
    }
    if (!runnable) continue;
    const comment = commentBefore(lines, fence.line);
    const notRun = comment === null ? null : /^not run(?::\s*(.*))?$/s.exec(comment);
    if (notRun) {
      const reason = notRun[1]?.trim() ?? '';
      if (reason === '') result.mistakes.push(`line ${fence.line}: "not run" needs a reason: <!-- not run: why -->`);
      else result.skipped.push({ line: fence.line, reason });
      const next = all[index + 1];
      if (next?.lang === 'text' && lines.slice(fence.end, next.line - 1).every((l) => l.trim() === '')) used.add(next);
      continue;
    }
    if (fence.lang === 'console') {
      result.units.push(...transcript(fence, result.mistakes));
      continue;
    }
    const next = all[index + 1];
    const output = next?.lang === 'text' && lines.slice(fence.end, next.line - 1).every((l) => l.trim() === '') ? next : null;
    if (output) used.add(output);
    result.units.push({ line: fence.line, kind: 'script', code: fence.body.join('\n'), expected: output ? output.body.join('\n') : null });
  }
  return result;
}
