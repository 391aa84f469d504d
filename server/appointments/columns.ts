import { toNfc } from '../text/unicode.ts';
import { missingRequired } from '../imports/engine/columns.ts';
import { APPOINTMENT_FIELDS, REQUIRED_COLUMNS, REQUIRED_UNLESS, type AppointmentField } from './fields.ts';

/** Column titles compare trimmed, ignoring case, and treating spaces, `_` and `-` alike ("Tag Name" = "tag_name"). */
export function columnKey(title: string): string {
  return toNfc(title)
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

const SPEC_BY_KEY = new Map<string, AppointmentField>(APPOINTMENT_FIELDS.map((field) => [columnKey(field), field]));

export type MappedValues = Partial<Record<AppointmentField, unknown>>;

/**
 * Reads records through an import handler's mapping (column title -> spec field). A title the
 * mapping does not name is still read when it is a spec field name; other columns are ignored.
 */
export class ColumnMapper {
  private readonly mapping: Map<string, AppointmentField>;
  private readonly fieldOfKey = new Map<string, AppointmentField | null>();
  private readonly labels = new Map<AppointmentField, string>();
  private readonly titles = new Map<AppointmentField, string>();

  /**
   * `titlesOnly`: the records are already keyed by field (the import engine matched the header
   * through the mapping); the mapping then only gives the titles that messages use.
   */
  constructor(mapping: Record<string, AppointmentField> = {}, options: { titlesOnly?: boolean } = {}) {
    const reading = options.titlesOnly ? [] : Object.entries(mapping);
    this.mapping = new Map(reading.map(([title, field]) => [columnKey(title), field]));
    for (const [title, field] of Object.entries(mapping)) if (!this.titles.has(field)) this.titles.set(field, title.trim());
  }

  /** The spec field a column title supplies, or null when the column is not read. */
  fieldOf(title: string): AppointmentField | null {
    let field = this.fieldOfKey.get(title);
    if (field === undefined) {
      const key = columnKey(title);
      field = this.mapping.get(key) ?? SPEC_BY_KEY.get(key) ?? null;
      this.fieldOfKey.set(title, field);
      if (field && !this.labels.has(field)) this.labels.set(field, title.trim());
    }
    return field;
  }

  /** The name a field admin knows a field by: the handler's title for it, else the column title it came from, else the spec name. */
  label(field: AppointmentField): string {
    return this.titleFor(field) ?? this.labels.get(field) ?? field;
  }

  /** Spec field -> value; the first non-empty column wins when two supply one field. */
  map(record: Record<string, unknown>): MappedValues {
    const values: MappedValues = {};
    for (const title in record) {
      const field = this.fieldOf(title);
      if (field === null) continue;
      const value = record[title];
      if (values[field] === undefined || isBlank(values[field])) values[field] = value;
    }
    return values;
  }

  /**
   * What is wrong with a file's header row, in words for a field admin: required columns that are
   * missing, and two columns that supply the same field. Empty when the file can be read.
   */
  checkHeaders(headers: string[], options: { organizationGiven: boolean }): string[] {
    const problems: string[] = [];
    const supplied = new Map<AppointmentField, string>();
    for (const header of headers) {
      const field = this.fieldOf(header);
      if (field === null) continue;
      const earlier = supplied.get(field);
      if (earlier !== undefined) problems.push(`The columns "${earlier}" and "${header.trim()}" both give ${field}; remove or rename one.`);
      else supplied.set(field, header.trim());
    }
    const required = missingRequired({ requiredColumns: REQUIRED_COLUMNS, requiredUnless: REQUIRED_UNLESS }, new Set(supplied.keys()));
    const missing = required.filter((field) => field !== 'service') as AppointmentField[];
    if (!options.organizationGiven && !supplied.has('organization_uuid')) missing.push('organization_uuid');
    if (missing.length > 0) {
      const named = missing.map((field) => this.describeColumn(field)).join(', ');
      problems.push(
        `The file has no column for ${named}. The first row must hold the column titles; download the template for the expected layout.`,
      );
    }
    if (required.includes('service')) {
      problems.push(`The file needs a column for ${this.describeColumn('service')} or ${this.describeColumn('service_code')}.`);
    }
    return problems;
  }

  /** The column title the mapping expects for a field, if it names one. */
  titleFor(field: AppointmentField): string | undefined {
    return this.titles.get(field);
  }

  private describeColumn(field: AppointmentField): string {
    const title = this.titleFor(field);
    return title === undefined ? field : `${field} (titled "${title}")`;
  }
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}
