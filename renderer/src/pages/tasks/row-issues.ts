/**
 * A row's error, as the import words it, split into one line per problem with the column each
 * is about. The import joins a row's problems into one string (docs/api.md: `error`); each problem
 * starts with the column's name as the file names it ("type: must be…", "When "next tuesday" is
 * not…"), so a new problem starts where a sentence starts with one of the row's column names.
 */
export interface RowIssue {
  /** The column the problem is about, as the row names it; null when it names none. */
  column: string | null;
  message: string;
}

/** The spec's sentence for an address that cannot be located (server/geocoding/geocoder.ts). */
const NOT_LOCATED = 'Address could not be located.';
const ADDRESS_COLUMNS = ['location', 'address', 'suburb', 'postcode', 'state', 'country'];
/** Problems that name no column at their start. */
const OTHER_STARTS = [NOT_LOCATED, 'Give ', 'Each element'];

/** Splits after "; " and after ". " (keeping the full stop); the pieces are sentences or clauses. */
function pieces(error: string): string[] {
  return error.split(/(?<=;) (?=\S)|(?<=\.) (?=\S)/);
}

function startsWithColumn(piece: string, columns: readonly string[]): string | null {
  for (const column of columns) {
    if (column === '' || !piece.startsWith(column)) continue;
    const next = piece.charAt(column.length);
    if (next === ' ' || next === ':') return column;
  }
  return null;
}

/**
 * `columns`: the row's column names (file titles or field names), and `aliases` other names a
 * message may use for them (field -> title). `filled` says which cells have a value: an address
 * that cannot be located is marked on its first filled address cell. A "field: " prefix is left
 * out of the message (the column is shown with it).
 */
export function splitRowError(
  error: string,
  columns: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
  filled: (column: string) => boolean = () => true,
): RowIssue[] {
  const names = [...new Set([...columns, ...Object.keys(aliases)])].sort((a, b) => b.length - a.length);
  const toColumn = (name: string) => (columns.includes(name) ? name : (aliases[name] ?? name));
  const addressColumns = [
    ...ADDRESS_COLUMNS.flatMap((a) => columns.filter((c) => c.toLowerCase() === a)),
    ...(aliases.location ? [aliases.location] : []),
  ];
  const addressColumn = addressColumns.find(filled) ?? addressColumns[0] ?? null;
  const issues: RowIssue[] = [];
  for (const piece of pieces(error.trim())) {
    const named = startsWithColumn(piece, names);
    const other = OTHER_STARTS.some((start) => piece.startsWith(start));
    const current = issues[issues.length - 1];
    if (current && !named && !other) {
      current.message = `${current.message} ${piece}`;
      continue;
    }
    const column = named
      ? toColumn(named)
      : piece.startsWith(NOT_LOCATED)
        ? addressColumn
        : piece.startsWith('Give ')
          ? (columns.find((c) => c === 'service' || c === aliases.service) ?? null)
          : null;
    issues.push({ column, message: named && piece.startsWith(`${named}: `) ? piece.slice(named.length + 2) : piece });
  }
  for (const issue of issues) issue.message = issue.message.replace(/;$/, '');
  return issues.length > 0 ? issues : [{ column: null, message: error }];
}

/** The part of a message that names the Services API, for a link to the Services tab in its place. */
export const SERVICES_API_HINT = /under Services \(POST \/api\/services\)/;
