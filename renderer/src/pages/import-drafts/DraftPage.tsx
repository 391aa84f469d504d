import './import-drafts.css';
import { countOf } from '../../../../common/count-words.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useApiAction } from '../../api/use-api-action.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageLoading } from '../../components/QueryState.tsx';
import { Panel } from '../../components/Panel.tsx';
import { Link, navigate } from '../../router.tsx';
import { saveAttachment } from '../../api/import-api.ts';
import { importKindOf } from '../../api/import-form.ts';
import {
  DRAFT_PATH,
  DRAFT_ROWS_PATH,
  type DraftRow,
  deleteRows,
  discardDraft,
  downloadRequest,
  draftQuery,
  editCell,
  fillDown,
  draftRowLabel,
  importFixedRows,
  replaceInColumn,
  undoEdit,
} from '../../api/draft-api.ts';
import { type ActiveCell, DraftGrid } from './DraftGrid.tsx';
import { LastImportNotice } from './LastImportNotice.tsx';
import { useFileColumns } from '../../components/import-results/use-file-columns.ts';
import { ReplaceForm, RowTools } from './DraftTools.tsx';
import { useDraftRows } from './use-draft-rows.ts';

const IMPORTING_POLL_MS = 1000;

/** What the last edit's check said, and how long the answer took (the grid's own measure). */
interface Checked {
  label: string;
  problem: string | null;
}

/**
 * The columns with a value or a problem first, the file's own in its order before the others; then
 * the empty ones (the file's, then the kind's), so the grid does not open on an empty column.
 */
function usedColumnsFirst(columns: readonly string[], rows: readonly DraftRow[], fileOrder: readonly string[]): string[] {
  const used = new Set(rows.flatMap((row) => [...columns.filter((c) => (row.cells[c] ?? '') !== ''), row.problem_column ?? '']));
  const ordered = [...fileOrder.filter((c) => columns.includes(c)), ...columns.filter((c) => !fileOrder.includes(c))];
  return [...ordered.filter((c) => used.has(c)), ...ordered.filter((c) => !used.has(c))];
}

/**
 * The workbench's "fix in place": an import's excluded rows in an editable grid. Each edit is
 * checked again on the server with the import's own checks; the draft is kept there until it is
 * imported or discarded.
 */
export function DraftPage({ uuid }: { uuid: string }) {
  const queryClient = useQueryClient();
  const draftState = useQuery({
    ...draftQuery(uuid),
    refetchInterval: (q) => (q.state.data?.status === 'importing' ? IMPORTING_POLL_MS : false),
  });
  const draft = draftState.data;
  const [problemsOnly, setProblemsOnly] = useState(false);
  const [search, setSearch] = useState('');
  const filter = { problemsOnly, search };
  const rows = useDraftRows(uuid, filter);
  const [active, setActive] = useState<ActiveCell | null>(null);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [seenImport, setSeenImport] = useState(draft?.last_import?.task_uuid);
  // Columns the rows use come first (a file seldom fills every column of the kind), in the kind's order; fixed once read.
  const [columnOrder, setColumnOrder] = useState<string[] | null>(null);
  const file = useFileColumns(draft?.source_task_uuid ?? null);
  const titles = useMemo(() => Object.fromEntries((file?.columns ?? []).map((c) => [c.column, c.header.trim()])), [file]);
  // Where the workbook has several sheets, a row number is said with its sheet's name.
  const sheet = file?.sheet ?? null;
  if (draft && rows.firstRows && !columnOrder && (draft.source_task_uuid === null || file))
    setColumnOrder(usedColumnsFirst(draft.columns, rows.firstRows, file?.columns.map((c) => c.column) ?? []));

  const reloadAll = async () => {
    rows.clearOverrides();
    await queryClient.invalidateQueries({ queryKey: [DRAFT_ROWS_PATH] });
    await queryClient.invalidateQueries({ queryKey: [DRAFT_PATH] });
  };
  // An import of the fixed rows ended (the draft took in its outcome): the rows show what became of each.
  const settled = draft?.last_import?.task_uuid;
  if (draft && settled !== seenImport) {
    setSeenImport(settled);
    setSaid(null);
    void reloadAll();
  }

  const edit = useApiAction(async (row: DraftRow, column: string, value: string) => {
    rows.override({ ...row, cells: { ...row.cells, [column]: value } });
    const answer = await editCell(uuid, row.row_id, column, value).send();
    rows.override(answer.row);
    setChecked({ label: draftRowLabel(answer.row, sheet), problem: answer.row.problem });
    setActive((current) => (current && current.row.row_id === row.row_id ? { ...current, row: answer.row } : current));
    await queryClient.invalidateQueries({ queryKey: [DRAFT_PATH] });
  });
  const change = useApiAction(
    async (what: () => Promise<{ changed: number; rechecked: number }>, words: (n: number, m: number) => string) => {
      const answer = await what();
      setChecked(null);
      setSaid(words(answer.changed, answer.rechecked));
      setActive(null);
      await reloadAll();
    },
  );
  const importing = useApiAction(async () => {
    const accepted = await importFixedRows(uuid).send();
    setChecked(null);
    setActive(null);
    setSaid(`The import of the fixed rows started (task ${accepted.background_task_uuid}).`);
    await queryClient.invalidateQueries({ queryKey: [DRAFT_PATH] });
  });
  const discard = useApiAction(async () => {
    await discardDraft(uuid).send();
    navigate(draft?.source_task_uuid ? `/tasks/${draft.source_task_uuid}` : '/imports');
  });
  const download = useApiAction((format: 'csv' | 'xlsx') => saveAttachment(downloadRequest(uuid, format), `fixed-rows.${format}`));

  const back = draft?.source_task_uuid ? (
    <Link to={`/tasks/${draft.source_task_uuid}`}>← The import task</Link>
  ) : (
    <Link to="/imports">← Imports</Link>
  );
  if (!draft) return <PageLoading title="Fix rows in place" back={back} query={draftState} loading="Opening the rows…" />;

  const busy = draft.status === 'importing' || change.running || importing.running;
  const lastRowId = Math.max(0, ...rows.slots.slice(-1).map((s) => s.row?.row_id ?? 0));
  const error = edit.error ?? change.error ?? importing.error ?? discard.error ?? download.error ?? rows.error;
  return (
    <>
      <PageHeader
        title="Fix rows in place"
        description={`${importKindOf(draft.kind).label} · ${countOf(draft.rows, 'row')}${sheet ? ` of sheet ${sheet}` : ''} · ${draft.rows_with_problems.toLocaleString()} with problems · ${draft.rows_imported.toLocaleString()} imported`}
        back={back}
      />
      <ErrorNotice
        error={error}
        onDismiss={() => {
          for (const action of [edit, change, importing, discard, download]) action.clearError();
        }}
      />
      {draft.last_import && <LastImportNotice last={draft.last_import} />}
      {draft.status === 'importing' && (
        <div className="notice notice-info" role="status">
          <span>
            Importing the fixed rows… {draft.import_task_uuid && <Link to={`/tasks/${draft.import_task_uuid}`}>Follow the task</Link>}
          </span>
        </div>
      )}
      <Panel title="Rows">
        <div className="toolbar draft-filters">
          <label className="checkbox">
            <input type="checkbox" checked={problemsOnly} onChange={(e) => setProblemsOnly(e.target.checked)} /> Only rows with problems
          </label>
          <span className="inline-field">
            <label htmlFor="draft-search">Rows with text</label>
            <input id="draft-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          </span>
          <span className="muted" role="status" aria-live="polite" data-testid="draft-rows-shown">
            {countOf(rows.total, 'row')} shown
          </span>
        </div>
        <ReplaceForm
          key={columnOrder ? 'used-first' : 'kind-order'}
          columns={columnOrder ?? draft.columns}
          busy={busy}
          onReplace={(body) =>
            void change.run(
              () => replaceInColumn(uuid, body).send(),
              (n, m) =>
                `Replaced in ${countOf(n, 'row')}; ${m.toLocaleString()} checked again${n > m ? ' (the import checks the rest)' : ''}.`,
            )
          }
        />
        <RowTools
          active={active}
          lastRowId={lastRowId}
          canUndo={draft.can_undo}
          lastAction={draft.last_action}
          busy={busy}
          onFillDown={(column, from, to) =>
            void change.run(
              () => fillDown(uuid, column, from, to).send(),
              (n) => `Filled ${column} down into ${countOf(n, 'row')}.`,
            )
          }
          onDelete={(rowId) =>
            void change.run(
              () => deleteRows(uuid, [rowId]).send(),
              () => `Deleted row ${rowId}.`,
            )
          }
          onUndo={() =>
            void change.run(
              () => undoEdit(uuid).send(),
              (n) => `Undone (${countOf(n, 'row')} put back).`,
            )
          }
        />
        <p className="muted draft-said" role="status" data-testid="draft-said">
          {checked
            ? `${checked.label} checked again: ${checked.problem ?? 'no problem left, it will be imported.'}`
            : (said ?? 'Double-click a cell (or type on it) to change it; Enter keeps the change and checks the row again.')}
        </p>
        <DraftGrid
          key={`${problemsOnly}|${search}`}
          columns={columnOrder ?? draft.columns}
          columnsSettled={columnOrder !== null}
          titles={titles}
          sheet={sheet}
          slots={rows.slots}
          editable={draft.status === 'open'}
          onEdit={(row, column, value) => {
            setSaid(null);
            void edit.run(row, column, value);
          }}
          onActiveCell={(cell) => {
            setActive(cell);
            if (!cell || edit.running) return;
            setChecked(null);
            const { row } = cell;
            setSaid(
              row.state === 'imported'
                ? `${draftRowLabel(row, sheet)} was imported.`
                : `${draftRowLabel(row, sheet)}: ${row.problem ?? 'no problem.'}`,
            );
          }}
          onVisibleRows={rows.setVisible}
        />
        <div className="toolbar draft-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={busy || draft.rows === draft.rows_imported}
            onClick={() => void importing.run()}
          >
            {draft.status === 'importing' ? 'Importing the fixed rows…' : 'Import the fixed rows'}
          </button>
          <button type="button" className="button" disabled={download.running} onClick={() => void download.run('csv')}>
            Download CSV
          </button>
          <button type="button" className="button" disabled={download.running} onClick={() => void download.run('xlsx')}>
            Download Excel
          </button>
          <button type="button" className="button button-danger-quiet" disabled={busy} onClick={() => void discard.run()}>
            Discard the draft
          </button>
        </div>
        <p className="field-hint">
          Edits are kept on the server until the rows are imported or the draft is discarded. “Import the fixed rows” imports the rows not
          yet imported as a new task linked to the import they came from; rows it excludes again stay here with their new problem.
        </p>
      </Panel>
    </>
  );
}
