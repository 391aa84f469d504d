/**
 * The column an import's exclusion reason is about: the field it starts with ("state: must be one
 * of …", "tags.0.tag_number: …"), else the cell whose value it quotes ('"VCI" is not a state …'),
 * else the first of the kind's columns it names; null when it names none (the grid then shows the
 * problem on the row only).
 */
export function problemColumn(
  problem: string | null,
  columns: readonly string[],
  cells: Readonly<Record<string, string>> = {},
): string | null {
  if (!problem) return null;
  const quoted = [...problem.matchAll(/"([^"]+)"/g)].map((m) => m[1]?.trim().toLowerCase());
  const lead = /^([A-Za-z_][\w.]*)\s*:/.exec(problem);
  if (!lead) {
    const holder = columns.find((column) => {
      const value = cells[column]?.trim().toLowerCase();
      return value !== undefined && value !== '' && quoted.includes(value);
    });
    if (holder) return holder;
  }
  if (lead?.[1]) {
    const named = lead[1].split('.').find((part) => columns.includes(part));
    if (named) return named;
  }
  // "Address could not be located": the address is read from the location (and the parts beside it).
  if (/^address\b/i.test(problem) && columns.includes('location')) {
    return !cells.location?.trim() && cells.suburb?.trim() ? 'suburb' : 'location';
  }
  const words = new Set(problem.match(/[A-Za-z_]+/g) ?? []);
  return columns.find((column) => words.has(column)) ?? null;
}

/** The cells' text for the text filter: every value, lower case, one separator that no one types. */
export function searchText(cells: Readonly<Record<string, string>>): string {
  return Object.values(cells).join('\u001f').toLowerCase();
}

/** A cell of an import's stored row as the draft's text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
