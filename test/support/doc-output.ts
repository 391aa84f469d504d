/**
 * Compares what an example printed with what its docs page shows. Both sides are normalised first,
 * so that what differs from run to run stands for itself: uuids, times, ports, durations, secrets
 * and keys; runs of spaces count as one. In the page's text `…` stands for any text within a line,
 * and a line that is only `…` for any number of lines.
 */

const RULES: Array<[RegExp, string]> = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>'],
  [/\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)?/g, '<time>'],
  [/\b\d\d:\d\d:\d\d\b/g, '<clock>'],
  [/\b(127\.0\.0\.1|localhost):\d+/g, '$1:<port>'],
  [/\b\d+(?:\.\d+)? ms\b/g, '<n> ms'],
  [/\b[0-9a-f]{64}\b/g, '<hex>'],
  [/\bqrs_[A-Za-z0-9_-]+/g, 'qrs_<key>'],
];

export function normalise(text: string): string {
  let out = text.replace(/\r\n/g, '\n').replaceAll('\uFEFF', ''); // a BOM shows as nothing
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The page's text as a pattern: `…` within a line is any text, a line of `…` any lines. */
function patternOf(expected: string): RegExp {
  const lines = normalise(expected).split('\n');
  const anyLines = (line: string) => line.trim() === '…';
  let source = '';
  lines.forEach((line, index) => {
    const last = index === lines.length - 1;
    if (anyLines(line)) {
      // Whole lines, each with its line break; at the end, whatever follows the line before.
      source += last ? '(?:\\n[^\\n]*)*' : '(?:[^\\n]*\\n)*?';
      return;
    }
    source += line.split('…').map(escapeRegExp).join('[^\\n]*?');
    const next = lines[index + 1];
    if (!last && !(next !== undefined && anyLines(next) && index + 1 === lines.length - 1)) source += '\\n';
  });
  return new RegExp(`^${source}$`);
}

/** Whether what was printed is what the page shows. */
export function matchesPage(actual: string, expected: string): boolean {
  return patternOf(expected).test(normalise(actual));
}
