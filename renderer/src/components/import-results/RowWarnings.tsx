import { type ResultsOf, rowLabel, warnedRows } from '../../api/task-format.ts';

/** How many warnings are listed; the rest are counted. */
const LISTED = 50;

/**
 * The rows an import took with a warning, in the import's words (the preview said the same):
 * imported, not excluded, but worth a look, e.g. an address located by its place.
 */
export function RowWarnings({ task }: { task: ResultsOf }) {
  const rows = warnedRows(task);
  if (rows.length === 0) return null;
  const warned = typeof task.results?.warned === 'number' ? task.results.warned : rows.length;
  return (
    <section className="row-warnings" aria-labelledby="row-warnings-title">
      <h3 id="row-warnings-title">Warnings</h3>
      <p className="muted">
        {warned === 1 ? 'One row was' : `${warned.toLocaleString()} rows were`} imported with a warning. Warnings are not exclusions: check
        that each value was read as you meant, and correct the record if not.
      </p>
      <ul className="row-warning-list" aria-label="Import warnings">
        {rows.slice(0, LISTED).map((row, i) => (
          <li key={`${row.index}:${i}`}>
            <span className="row-warning-row" title={`index ${row.index} in the API's results`}>
              {rowLabel(row)}
            </span>{' '}
            {row.warning}
          </li>
        ))}
      </ul>
      {rows.length > LISTED && (
        <p className="muted">
          {(rows.length - LISTED).toLocaleString()} more in the task's results (<code>warnings</code>).
        </p>
      )}
    </section>
  );
}
