/**
 * The child process of scripts/workbook-corpus.ts: reads each workbook it is sent the way an
 * import does (the sniff, the preview's layout with the QR code kind's columns, then every row of
 * the chosen sheet) and answers what happened. Its heap is capped like an upload reader's.
 */
import { ImportInputError } from '../server/imports/errors.ts';
import { resolveKindLayout } from '../server/imports/intake/layout.ts';
import { isWorkbookFormat, sniffFormat } from '../server/imports/intake/sniff.ts';
import { loadKind } from '../server/imports/kinds.ts';
import { DEFAULT_IMPORT_LIMITS } from '../server/imports/limits.ts';
import { openSource } from '../server/imports/sources/open.ts';

export type CorpusOutcome =
  | { outcome: 'read'; format: string; sheets: number; rows: number; cells: number }
  | { outcome: 'refused'; format: string; message: string }
  | { outcome: 'not-a-workbook'; format: string }
  | { outcome: 'crashed'; format: string; message: string };

async function readOne(file: string): Promise<CorpusOutcome> {
  let format = 'unknown';
  try {
    const sniffed = sniffFormat(file);
    format = sniffed;
    if (!isWorkbookFormat(sniffed)) return { outcome: 'not-a-workbook', format };
    const kind = await loadKind('qrcodes');
    const layout = await resolveKindLayout({
      file,
      format: sniffed,
      kind,
      options: {},
      request: {},
      limits: DEFAULT_IMPORT_LIMITS,
      countRows: true,
    });
    let rows = 0;
    let cells = 0;
    await openSource(file, sniffed, DEFAULT_IMPORT_LIMITS, layout.fileLayout).read({
      onHeader() {},
      onRows(chunk) {
        rows += chunk.length;
        for (const row of chunk) if (Array.isArray(row)) cells += row.length;
      },
    });
    return { outcome: 'read', format, sheets: layout.sheets?.length ?? 0, rows, cells };
  } catch (error) {
    if (error instanceof ImportInputError) return { outcome: 'refused', format, message: error.message };
    return { outcome: 'crashed', format, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

process.on('message', (message: { file: string }) => {
  void readOne(message.file).then((result) => process.send?.({ file: message.file, result }));
});
