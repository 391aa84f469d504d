import { useQuery } from '@tanstack/react-query';
import { useLiveStore } from './live-store.ts';
import { getRequest } from '../api/get-query.ts';
import { isRunning } from '../api/task-format.ts';
import { taskQuery } from '../api/task-query.ts';

const POLL_WITHOUT_LIVE_MS = 2_000;
/** With the live stream open a running task is still read now and then: an end that raced the page's first read is not missed. */
const POLL_WITH_LIVE_MS = 3_000;

/** A task that follows live events (live-queries.ts), and is read again while it runs. */
export function useFollowedTask(uuid: string) {
  const params = { path: { background_task_uuid: uuid } };
  const liveOpen = useLiveStore((s) => s.status === 'open');
  const query = useQuery({
    ...taskQuery(uuid),
    refetchInterval: (q) => (q.state.data && !isRunning(q.state.data) ? false : liveOpen ? POLL_WITH_LIVE_MS : POLL_WITHOUT_LIVE_MS),
  });
  return { ...query, request: getRequest('/api/background-tasks/uuid/{background_task_uuid}', params) };
}
