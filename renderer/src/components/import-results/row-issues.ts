/**
 * A row's error, as the import words it, split into one line per problem with the column each
 * is about. The import joins a row's problems into one string (docs/api.md: `error`); each problem
 * starts with the column's name as the file names it ("type: must be…", "When "next tuesday" is
 * not…"), so a new problem starts where a sentence starts with one of the row's column names.
 */
export interface RowIssue {
  /** The column the problem is about, as the row names it (the cell to mark); null when it names none. */
  column: string | null;
  /** The problem after the column's name when it starts with one (shown after the column), else the whole problem. */
  message: string;
  /** Whether the problem starts with its column's name: the GUI shows the column in its place, never twice. */
  named: boolean;
  /** The problem exactly as the import words it (the task result and the error report say the same). */
  text: string;
}

/** The spec's sentence for an address that cannot be located (server/geocoding/geocoder.ts). */
const NOT_LOCATED = 'Address could not be located.';
/** The start of the warning for an address located by its place rather than as written (server/imports/engine/located-warning.ts). */
const LOCATED_APPROXIMATELY = 'Address located, but not exactly as written:';
const ADDRESS_COLUMNS = ['location', 'address', 'suburb', 'postcode', 'state', 'country'];
/** Problems that name no column at their start. */
const OTHER_STARTS = [NOT_LOCATED, LOCATED_APPROXIMATELY, 'Give ', 'Each element'];

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
 * that cannot be located is marked on its first filled address cell; its sentence (the spec's) names
 * no column and gets no column prefix anywhere. A leading column name ("type: …", "duration must…")
 * is left out of `message` (the column is shown in its place); `text` keeps the import's words.
 */
export function splitRowError(
  error: string,
  columns: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
  filled: (column: string) => boolean = () => true,
): RowIssue[] {
  const names = [...new Set([...columns, ...Object.keys(aliases)])].sort((a, b) => b.length - a.length);
  const toColumn = (name: string) => (columns.includes(name) ? name : (aliases[name] ?? name));
  // Each address field as the row names it: the file's own title for it ("Town" for suburb), else a column of its name.
  const addressColumns = ADDRESS_COLUMNS.flatMap((field) => {
    const titled = aliases[field];
    return titled !== undefined && columns.includes(titled) ? [titled] : columns.filter((c) => c.toLowerCase() === field);
  });
  const addressColumn = addressColumns.find(filled) ?? addressColumns[0] ?? null;
  const issues: RowIssue[] = [];
  for (const piece of pieces(error.trim())) {
    const named = startsWithColumn(piece, names);
    const other = OTHER_STARTS.some((start) => piece.startsWith(start));
    const current = issues[issues.length - 1];
    if (current && !named && !other) {
      current.message = `${current.message} ${piece}`;
      current.text = `${current.text} ${piece}`;
      continue;
    }
    const column = named
      ? toColumn(named)
      : piece.startsWith(NOT_LOCATED) || piece.startsWith(LOCATED_APPROXIMATELY)
        ? addressColumn
        : piece.startsWith('Give ')
          ? (columns.find((c) => c === 'service' || c === aliases.service) ?? null)
          : null;
    issues.push({
      column,
      message: named ? piece.slice(named.length).replace(/^:?\s*/, '') : piece,
      named: named !== null,
      text: piece,
    });
  }
  for (const issue of issues) {
    issue.message = issue.message.replace(/;$/, '');
    issue.text = issue.text.replace(/;$/, '');
  }
  return issues.length > 0 ? issues : [{ column: null, message: error, named: false, text: error }];
}

/** The part of a message that names the Services API, for a link to the Services tab in its place. */
export const SERVICES_API_HINT = /under Services \(POST \/api\/services\)/;
