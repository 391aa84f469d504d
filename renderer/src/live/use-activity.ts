import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { getQuery } from '../api/get-query.ts';
import { useSignedIn } from '../auth/session-store.ts';
import { useLiveEvent } from './live-store.ts';

export const activityQuery = (organizationUuid: string) => getQuery('/api/activity', { query: { organization_uuid: organizationUuid } });

/** The running counters and demo mode; events and delivery attempts reload them and the event list (at most every 300 ms). */
export function useActivity() {
  const { session } = useSignedIn();
  const queryClient = useQueryClient();
  const activity = useQuery(activityQuery(session.organization_uuid));
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reload = () => {
    if (pending.current !== undefined) return;
    pending.current = setTimeout(() => {
      pending.current = undefined;
      void queryClient.invalidateQueries({ queryKey: ['/api/activity'] });
      void queryClient.invalidateQueries({ queryKey: ['/api/webhook-events'] });
    }, 300);
  };
  useLiveEvent('webhook.event', reload);
  useLiveEvent('delivery.attempt', reload);
  useLiveEvent('task.created', reload);
  return activity;
}
