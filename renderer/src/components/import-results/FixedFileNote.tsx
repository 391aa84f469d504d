import type { BackgroundTask } from '../../api/types.ts';
import { Link } from '../../router.tsx';

/** For the import of a fixed error report: the import it fixes, and what its row numbers are. */
export function FixedFileNote({ task }: { task: Pick<BackgroundTask, 'metadata'> }) {
  const original = task.metadata?.fixes_task_uuid;
  if (typeof original !== 'string' || original === '') return null;
  const draft = task.metadata?.import_draft_uuid;
  if (typeof draft === 'string' && draft !== '') {
    return (
      <p className="notice notice-info fixed-file-note">
        This import is the rows of <Link to={`/tasks/${encodeURIComponent(original)}`}>the earlier import</Link> fixed in place (
        <Link to={`/imports/drafts/${encodeURIComponent(draft)}`}>the draft</Link>, which shows what became of each). Its row numbers count
        the fixed rows it imported, in the draft's order.
      </p>
    );
  }
  return (
    <p className="notice notice-info fixed-file-note">
      {/* One run of text: a notice lays its children out side by side. */}
      <span>
        This import is the fixed error report of <Link to={`/tasks/${encodeURIComponent(original)}`}>the earlier import</Link>. Its row
        numbers are lines of the fixed file; the file's <code>row_number</code> column has each row's line in the original file.
      </span>
    </p>
  );
}
