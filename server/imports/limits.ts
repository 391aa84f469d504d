/**
 * The bounds an import works within. Each is checked while the input streams, before its cost
 * is paid, and its message names the limit and the `serve` flag that changes it.
 */
export interface ImportLimits {
  /** Longest cell: CSV field or JSON string in characters, workbook cell text in bytes of its XML. */
  maxCellChars: number;
  /** Longest CSV record (one row, quoted line breaks included), workbook row (its text cells together) or JSON array element, in characters. */
  maxLineChars: number;
  /** Most data rows in one import (blank rows included). */
  maxRows: number;
  /** Most columns in the header row or in any data row. */
  maxColumns: number;
  /** Largest decompressed size of one entry of a workbook (.xlsx is a zip). */
  maxXlsxEntryBytes: number;
  /** Largest decompressed size of all a workbook's entries together. */
  maxXlsxTotalBytes: number;
  /** Highest decompressed/compressed ratio of one workbook entry. */
  maxXlsxRatio: number;
  /** Most cells with a value in an .xls or .ods workbook, all its sheets together: SheetJS reads such a workbook whole, into memory. */
  maxXlsOdsCells: number;
  /** Largest .xls file, or .ods unpacked (all its parts together): SheetJS holds it in memory while it reads. */
  maxXlsOdsBytes: number;
  /** Excluded rows kept with their cells per import; beyond it only the count grows. */
  maxStoredExcluded: number;
  /** Heap of one import worker process (its V8 old generation). */
  workerMemoryMb: number;
  /** Import drafts an organization keeps at most; a new one past it is refused. */
  maxDraftsPerOrganization: number;
  /** Bytes of cell text one change of an import draft (a find and replace, a fill down) may add. */
  maxDraftChangeBytes: number;
}

export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxCellChars: 1024 * 1024,
  maxLineChars: 4 * 1024 * 1024,
  maxRows: 2_000_000,
  maxColumns: 1000,
  maxXlsxEntryBytes: 1024 * 1024 * 1024,
  maxXlsxTotalBytes: 2048 * 1024 * 1024,
  maxXlsxRatio: 200,
  maxXlsOdsCells: 200_000,
  maxXlsOdsBytes: 48 * 1024 * 1024,
  maxStoredExcluded: 10_000,
  workerMemoryMb: 192,
  maxDraftsPerOrganization: 100,
  maxDraftChangeBytes: 16 * 1024 * 1024,
};

/** The `serve` flag of each limit, its unit and how a flag value becomes the setting. */
export const LIMIT_FLAGS: Record<keyof ImportLimits, { flag: string; unit: string; toSetting: number; help: string }> = {
  maxCellChars: { flag: 'max-cell-kb', unit: 'KB', toSetting: 1024, help: 'Longest cell of an import file, in KB of text' },
  maxLineChars: {
    flag: 'max-line-kb',
    unit: 'KB',
    toSetting: 1024,
    help: 'Longest CSV row, workbook row (its cells together) or JSON array element, in KB of text',
  },
  maxRows: { flag: 'max-import-rows', unit: 'rows', toSetting: 1, help: 'Most data rows in one import' },
  maxColumns: { flag: 'max-columns', unit: 'columns', toSetting: 1, help: 'Most columns of an import file' },
  maxXlsxEntryBytes: {
    flag: 'max-xlsx-entry-mb',
    unit: 'MB',
    toSetting: 1024 * 1024,
    help: 'Largest decompressed part (e.g. a sheet) of an .xlsx, in MB',
  },
  maxXlsxTotalBytes: {
    flag: 'max-xlsx-total-mb',
    unit: 'MB',
    toSetting: 1024 * 1024,
    help: 'Largest decompressed size of all the parts of an .xlsx together, in MB',
  },
  maxXlsxRatio: { flag: 'max-xlsx-ratio', unit: '', toSetting: 1, help: 'Highest compression ratio of a part of an .xlsx (or .ods)' },
  maxXlsOdsCells: {
    flag: 'max-xls-ods-cells',
    unit: 'cells',
    toSetting: 1,
    help: 'Most cells with a value in an .xls or .ods workbook (read whole into memory; .xlsx and CSV stream)',
  },
  maxXlsOdsBytes: {
    flag: 'max-xls-ods-mb',
    unit: 'MB',
    toSetting: 1024 * 1024,
    help: 'Largest .xls file, or .ods unpacked, in MB (read whole into memory)',
  },
  maxStoredExcluded: {
    flag: 'max-stored-excluded-rows',
    unit: 'rows',
    toSetting: 1,
    help: 'Excluded rows kept in full per import (the count stays exact)',
  },
  workerMemoryMb: { flag: 'import-worker-memory-mb', unit: 'MB', toSetting: 1, help: 'Heap of each import worker process, in MB' },
  maxDraftsPerOrganization: { flag: 'max-drafts', unit: 'drafts', toSetting: 1, help: 'Most import drafts an organization keeps' },
  maxDraftChangeBytes: {
    flag: 'max-draft-change-mb',
    unit: 'MB',
    toSetting: 1024 * 1024,
    help: 'Most cell text one change of an import draft adds, in MB',
  },
};

/** The limit as a user sets it: "1,024 KB (serve --max-cell-kb)". */
export function describeLimit(limits: ImportLimits, name: keyof ImportLimits): string {
  const { flag, unit, toSetting } = LIMIT_FLAGS[name];
  const value = (limits[name] / toSetting).toLocaleString('en-US', { maximumFractionDigits: 2 });
  return `${value}${unit ? ` ${unit}` : ''} (serve --${flag})`;
}

/** The limits from `serve` flag values (as given on the command line), or a message naming the bad one. */
export function limitsFromFlags(values: Record<string, unknown>): Partial<ImportLimits> | string {
  const limits: Partial<ImportLimits> = {};
  for (const [name, { flag, toSetting }] of Object.entries(LIMIT_FLAGS) as [
    keyof ImportLimits,
    (typeof LIMIT_FLAGS)[keyof ImportLimits],
  ][]) {
    const given = values[flag];
    if (given === undefined) continue;
    const number = Number(given);
    if (!Number.isFinite(number) || number <= 0 || number > 1e12) return `--${flag} must be a number above 0, not "${String(given)}".`;
    limits[name] = Math.max(1, Math.round(number * toSetting));
  }
  return limits;
}
