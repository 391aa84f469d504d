import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { getQuery } from '../api/get-query.ts';
import type { BackgroundTask, Page } from '../api/types.ts';
import { type Inbox, withArrival } from '../api/inspector-types.ts';
import { mergeLiveTask } from './live-list.ts';
import { taskQuery } from '../api/task-query.ts';
import { isRunning } from '../api/task-format.ts';
import { isCancelledTask } from '../../../common/cancelled.ts';
import { messageQuery, withRelay } from '../api/message-query.ts';
import { useLiveEvent, useLiveStore, useRefetchOnReconnect } from './live-store.ts';
import { useWebhookNoticeCollector } from '../components/webhook-notices.tsx';

type ListKey = readonly [string, { query?: Record<string, unknown> }];

/** Every cached page of the list at `path` (query keys [path, params]: api/get-query.ts), with its query parameters. */
function updateLists<T>(
  queryClient: QueryClient,
  path: string,
  update: (current: Page<T>, query: Record<string, unknown>) => Page<T>,
): void {
  for (const { queryKey } of queryClient.getQueryCache().findAll({ queryKey: [path] })) {
    const query = (queryKey as unknown as ListKey)[1]?.query ?? {};
    queryClient.setQueryData<Page<T>>(queryKey, (current) => current && update(current, query));
  }
}

const filterMatches = (query: Record<string, unknown>, name: string, value: string) =>
  query[name] === undefined || query[name] === '' || query[name] === value;

/**
 * Live events applied to the cached answers, whichever page shows them: a task on its own page and
 * in the task lists (in place, or new at the top of a first page it matches), arrivals in the inbox counts,
 * relays on their message. After a
 * reconnect every query loads again, since events may have been missed meanwhile.
 */
export function useLiveQueries(): void {
  const queryClient = useQueryClient();
  const applyTask = (task: BackgroundTask) => {
    // An older progress event never takes back the end of a task.
    queryClient.setQueryData(
      taskQuery(task.uuid).queryKey,
      (current) => current && (!isRunning(current) && isRunning(task) ? current : { ...current, ...task }),
    );
    updateLists<BackgroundTask>(queryClient, '/api/background-tasks', (current, query) =>
      mergeLiveTask(current, task, {
        page: Number(query.page ?? 1),
        matches: (t) =>
          filterMatches(query, 'task_type', t.task_type) &&
          filterMatches(query, 'status', t.status) &&
          filterMatches(query, 'cancelled', String(isCancelledTask(t))),
      }),
    );
  };
  useLiveEvent('task.created', applyTask);
  useLiveEvent('task.progress', applyTask);
  useLiveEvent('task.finished', (task) => {
    applyTask(task);
    // The finished event may carry only the status: the results come with the task itself.
    void queryClient.invalidateQueries({ queryKey: taskQuery(task.uuid).queryKey });
  });
  useLiveEvent('task.removed', ({ uuid }) =>
    updateLists<BackgroundTask>(queryClient, '/api/background-tasks', (current) =>
      current.items.some((t) => t.uuid === uuid)
        ? { ...current, items: current.items.filter((t) => t.uuid !== uuid), total: Math.max(0, current.total - 1) }
        : current,
    ),
  );
  useLiveEvent('inbox.message', (message) => {
    const inboxKey = getQuery('/api/inboxes/uuid/{uuid}', { path: { uuid: message.inbox_uuid } }).queryKey;
    queryClient.setQueryData(inboxKey, (current) => current && withArrival(current));
    updateLists<Inbox>(queryClient, '/api/inboxes', (current) => ({
      ...current,
      items: current.items.map((i) => (i.uuid === message.inbox_uuid ? withArrival(i) : i)),
    }));
  });
  useLiveEvent('inbox.relay', ({ inbox_uuid, message_uuid, ...relay }) =>
    queryClient.setQueryData(messageQuery(inbox_uuid, message_uuid).queryKey, (current) => current && withRelay(current, relay)),
  );
  useLiveEvent('organization.replaced', () => useLiveStore.setState((s) => ({ replacements: s.replacements + 1 })));
  useWebhookNoticeCollector();
  useRefetchOnReconnect(() => void queryClient.invalidateQueries());
}
