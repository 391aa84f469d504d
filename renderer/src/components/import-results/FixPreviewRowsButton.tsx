import type { ImportPreview } from '../../api/types.ts';
import { countOf } from '../../../../common/count-words.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { navigate } from '../../router.tsx';
import type { ImportKindName } from '../../api/import-form.ts';
import { openRowsDraft } from '../../api/draft-api.ts';

const text = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value));

/** The preview's rows with problems, under the kind's columns (the file's matched headers), for the draft. */
export function previewProblemRows(preview: ImportPreview) {
  const columnOf = new Map(preview.columns.matched.map((m) => [m.header, m.column]));
  return preview.rows
    .filter((row) => row.problems.length > 0)
    .map((row) => ({
      row_number: row.row_number,
      values: Object.fromEntries(
        Object.entries(row.values).flatMap(([header, value]) => {
          const column = columnOf.get(header) ?? (preview.expected_columns.includes(header) ? header : undefined);
          return column ? [[column, text(value)]] : [];
        }),
      ),
    }));
}

/** After a preview: its rows with problems opened in the grid, to fix before (or instead of) fixing the file. */
export function FixPreviewRowsButton({ kind, preview }: { kind: ImportKindName; preview: ImportPreview }) {
  const rows = previewProblemRows(preview);
  const open = useApiAction(async () => {
    const draft = await openRowsDraft(kind, rows).send();
    navigate(`/imports/drafts/${draft.uuid}`);
  });
  if (rows.length === 0) return null;
  return (
    <div className="toolbar">
      <button type="button" className="button" disabled={open.running} onClick={() => void open.run()}>
        Fix the {rows.length === 1 ? 'row' : `${rows.length} rows`} with problems {preview.more_rows ? 'in these first rows ' : ''}here
      </button>
      <span className="muted">
        {preview.more_rows
          ? `These are the problems among the first ${countOf(preview.rows.length, 'row')} of the file, the ones the preview checked; the import checks every row and lists the rest. They open in a grid, checked as you edit, and import from there.`
          : 'They open in a grid, checked as you edit, and import from there.'}
      </span>
      <ErrorNotice error={open.error} onDismiss={open.clearError} />
    </div>
  );
}
