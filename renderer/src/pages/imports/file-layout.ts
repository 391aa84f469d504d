/** What the user chose of a file's layout on the Imports page, sent as the form fields sheet, header_row, mapping and date_order. */

import type { ImportPreview } from '../../api/types.ts';

export type DateOrderName = 'day_first' | 'month_first';

export interface LayoutChoice {
  sheet?: string;
  headerRow?: number;
  /** Header text -> column, or null to ignore the column: the columns as the user confirmed them. */
  mapping?: Record<string, string | null>;
  dateOrders?: Record<string, DateOrderName>;
}

export const NO_CHOICE: LayoutChoice = {};

/** The form fields of a choice (only what was chosen). */
export function layoutFields(choice: LayoutChoice): Record<string, string> {
  const fields: Record<string, string> = {};
  if (choice.sheet !== undefined) fields.sheet = choice.sheet;
  if (choice.headerRow !== undefined) fields.header_row = String(choice.headerRow);
  if (choice.mapping) fields.mapping = JSON.stringify(choice.mapping);
  if (choice.dateOrders && Object.keys(choice.dateOrders).length > 0) fields.date_order = JSON.stringify(choice.dateOrders);
  return fields;
}

/** Each filled header and the column the preview reads it into (null: ignored). */
export function previewMapping(preview: ImportPreview): Record<string, string | null> {
  const mapping: Record<string, string | null> = {};
  for (const match of preview.columns.matches ?? []) {
    const header = match.header.trim();
    if (header !== '' && !Object.hasOwn(mapping, header)) mapping[header] = match.column;
  }
  return mapping;
}

/**
 * The choice to send with the import: the columns as the preview shows them when a saved mapping
 * made them (the import does not look saved mappings up itself), else only what the user chose.
 */
export function choiceToSend(choice: LayoutChoice, preview: ImportPreview | null): LayoutChoice {
  if (choice.mapping || !preview?.saved_mapping) return choice;
  return { ...choice, mapping: previewMapping(preview) };
}

/**
 * The matches the user has not answered yet: guesses (a similar spelling, `needs_confirmation`, applied or
 * only proposed) and proposals too unsure to apply. The Imports screen sends nothing until each is answered.
 */
export function openQuestions(
  preview: ImportPreview | null,
  choice: LayoutChoice,
): { header: string; proposed: string; confidence: number }[] {
  if (!preview) return [];
  const asked = (preview.columns.matches ?? []).filter((m) => m.needs_confirmation && m.proposed !== null);
  const unsure = (preview.columns.questions ?? []).filter((q) => !asked.some((m) => m.header.trim() === q.header.trim()));
  return [...asked.map((m) => ({ header: m.header, proposed: m.proposed ?? '', confidence: m.confidence })), ...unsure].filter(
    (q) => !choice.mapping || !Object.hasOwn(choice.mapping, q.header.trim()),
  );
}
