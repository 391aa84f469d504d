/** One data row keyed by the kind's column names. File cells are strings, numbers, booleans or Dates; JSON keeps its values. */
export type RawRecord = Record<string, unknown>;
