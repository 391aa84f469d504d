import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { countOf } from '../../../../common/count-words.ts';
import { getQuery } from '../../api/get-query.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { MinuteChart } from '../../components/charts/MinuteChart.tsx';
import { useThrottledRefetch } from '../../components/charts/use-live-refetch.ts';
import { useLiveEvent } from '../../live/live-store.ts';
import './events-per-minute.css';

const MINUTES = 60;

/** "Last hour: 120 events, at most 4 in a minute." */
export function eventsSummary(counts: number[]): string {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return 'Last hour: no events.';
  return `Last hour: ${countOf(total, 'event')}, at most ${Math.max(...counts).toLocaleString()} in a minute.`;
}

/** The organization's events per minute over the last hour, redrawn as events come. */
export function EventsPerMinute() {
  const { session } = useSignedIn();
  const perMinute = useQuery({
    ...getQuery('/api/activity/per-minute', { query: { organization_uuid: session.organization_uuid, minutes: MINUTES } }),
    placeholderData: keepPreviousData,
  });
  const refetchSoon = useThrottledRefetch(() => void perMinute.refetch());
  useLiveEvent('webhook.event', refetchSoon);
  const buckets = perMinute.data?.buckets ?? [];
  return (
    <div className="events-per-minute">
      <h2>Events per minute</h2>
      <MinuteChart
        minutes={buckets.map((b) => b.minute)}
        bars={[{ label: 'Events', colorVar: '--accent', values: buckets.map((b) => b.events) }]}
        summary={perMinute.data ? eventsSummary(buckets.map((b) => b.events)) : 'Loading the last hour…'}
        height={140}
      />
    </div>
  );
}
