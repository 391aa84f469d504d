import type { ImportLimits } from '../limits.ts';
import type { ImportFormat } from '../intake/sniff.ts';
import { csvSource } from './csv.ts';
import { jsonSource } from './json.ts';
import type { RowSource } from './source.ts';
import { xlsxSource } from './xlsx.ts';

export function openSource(file: string, format: ImportFormat, limits: ImportLimits): RowSource {
  if (format === 'csv') return csvSource(file, limits);
  if (format === 'xlsx') return xlsxSource(file, limits);
  return jsonSource(file, limits);
}
