import type { ImportLimits } from '../limits.ts';
import { type ImportFormat, isWorkbookFormat } from '../intake/sniff.ts';
import type { FileLayout } from '../engine/file-layout.ts';
import { csvSource } from './csv.ts';
import { jsonSource } from './json.ts';
import type { RowSource } from './source.ts';
import { workbookSource } from './workbook-source.ts';

/** The rows of an upload; `layout` names a workbook's sheet and the header row (intake/layout.ts settles them). */
export function openSource(file: string, format: ImportFormat, limits: ImportLimits, layout: FileLayout = {}): RowSource {
  const headerRow = layout.headerRow ?? null;
  if (format === 'csv') return csvSource(file, limits, headerRow);
  if (isWorkbookFormat(format)) return workbookSource(file, limits, { sheet: layout.sheet ?? null, headerRow }, format);
  return jsonSource(file, limits);
}
