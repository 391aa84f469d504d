import { z } from 'zod';

/** The encodings an uploaded CSV/TSV/TXT file is read in: `encoding` in file import results, sync and dry-run answers, and the preview. */
export const TEXT_ENCODINGS = ['utf-8', 'windows-1252', 'utf-16le', 'utf-16be'] as const;
export type TextEncodingName = (typeof TEXT_ENCODINGS)[number];
export const textEncodingSchema = z
  .enum(TEXT_ENCODINGS)
  .describe('The text encoding the uploaded CSV/TSV/TXT file was read in (ASCII-only text is utf-8); absent for XLSX and JSON');
