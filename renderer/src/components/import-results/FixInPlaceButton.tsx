import type { BackgroundTask } from '../../api/types.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { navigate } from '../../router.tsx';
import { openTaskDraft } from '../../api/draft-api.ts';

/** Opens a finished import's excluded rows in the grid (the draft it has, or a new one). */
export function FixInPlaceButton({ task }: { task: Pick<BackgroundTask, 'uuid'> }) {
  const open = useApiAction(async () => {
    const draft = await openTaskDraft(task.uuid).send();
    navigate(`/imports/drafts/${draft.uuid}`);
  });
  return (
    <>
      <button type="button" className="button button-primary" disabled={open.running} onClick={() => void open.run()}>
        {open.running ? 'Opening the rows…' : 'Fix the rows here'}
      </button>
      <ErrorNotice error={open.error} onDismiss={open.clearError} />
    </>
  );
}
