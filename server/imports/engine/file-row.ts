import { fileLayoutOf } from './file-layout.ts';

/**
 * A data row's number as the user's file shows it, from its 0-based index: the line (or sheet
 * row) below the header row the layout settled (blank rows keep their place), or the element's
 * position from 1 in a JSON array.
 */
export function fileRowNumber(index: number, json: boolean, options: Record<string, unknown>): number {
  return index + (json ? 1 : (fileLayoutOf(options).headerRow ?? 1) + 1);
}
