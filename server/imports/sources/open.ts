import type { ImportFormat } from '../sniff.ts';
import { csvSource } from './csv.ts';
import { jsonSource } from './json.ts';
import type { RowSource } from './source.ts';
import { xlsxSource } from './xlsx.ts';

export function openSource(file: string, format: ImportFormat): RowSource {
  if (format === 'csv') return csvSource(file);
  if (format === 'xlsx') return xlsxSource(file);
  return jsonSource(file);
}
