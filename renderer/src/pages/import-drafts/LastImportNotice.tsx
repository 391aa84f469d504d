import { countOf } from '../../../../common/count-words.ts';
import { Link } from '../../router.tsx';
import type { Draft } from '../../api/draft-api.ts';

/**
 * How the last import of the fixed rows ended: red when it failed (what failed and what to do from
 * here), green when every row was imported, plain when some were excluded again.
 */
export function LastImportNotice({ last }: { last: NonNullable<Draft['last_import']> }) {
  const failed = last.status !== 'COMPLETED';
  const tone = failed ? 'notice-error' : last.excluded === 0 ? 'notice-success' : 'notice-info';
  const task = <Link to={`/tasks/${last.task_uuid}`}>task</Link>;
  return (
    <div className={`notice ${tone}`} role={failed ? 'alert' : 'status'} data-testid="draft-last-import">
      <span>
        {failed ? (
          <>
            <strong>The import of the fixed rows failed</strong> ({task}): {countOf(last.imported, 'row')} imported.{' '}
          </>
        ) : (
          <>
            Last import of the fixed rows ({task}): {last.imported.toLocaleString()} imported, {last.excluded.toLocaleString()} excluded.{' '}
          </>
        )}
        {last.message}
      </span>
    </div>
  );
}
