import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { MinuteChart } from '../../components/charts/MinuteChart.tsx';
import { useThrottledRefetch } from '../../components/charts/use-live-refetch.ts';
import { Panel } from '../../components/Panel.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useLiveEvent } from '../../live/live-store.ts';

const MINUTES = 60;

/** "Last hour: 58 delivered, 4 retried, 1 failed; mean answer 42 ms". */
export function deliverySummary(totals: { delivered: number; retried: number; failed: number; answer_ms: number | null }): string {
  const { delivered, retried, failed, answer_ms } = totals;
  if (delivered + retried + failed === 0) return 'Last hour: no attempts.';
  const answer = answer_ms === null ? 'no answers' : `mean answer ${answer_ms.toLocaleString()} ms`;
  return `Last hour: ${delivered.toLocaleString()} delivered, ${retried.toLocaleString()} retried, ${failed.toLocaleString()} failed; ${answer}.`;
}

/** The webhook's attempts per minute over the last hour, and their answer time; redrawn after each attempt. */
export function DeliveryChart({ webhookUuid }: { webhookUuid: string }) {
  const { session } = useSignedIn();
  const stats = useQuery({
    ...getQuery('/api/webhooks/uuid/{uuid}/delivery-stats', {
      path: { uuid: webhookUuid },
      query: { organization_uuid: session.organization_uuid, minutes: MINUTES },
    }),
    placeholderData: keepPreviousData,
  });
  const refetchSoon = useThrottledRefetch(() => void stats.refetch());
  useLiveEvent('delivery.attempt', (event) => {
    if (event.webhook_uuid === webhookUuid) refetchSoon();
  });
  const buckets = stats.data?.buckets ?? [];
  return (
    <Panel title="Last hour" className="panel delivery-chart">
      <p className="muted small">Attempts per minute by when each started, and how long the answers took.</p>
      <ErrorNotice error={stats.error} onRetry={() => void stats.refetch()} />
      <MinuteChart
        minutes={buckets.map((b) => b.minute)}
        bars={[
          { label: 'Delivered', colorVar: '--success', values: buckets.map((b) => b.delivered) },
          { label: 'Retried', colorVar: '--warning', values: buckets.map((b) => b.retried) },
          { label: 'Failed', colorVar: '--danger', values: buckets.map((b) => b.failed) },
        ]}
        line={{ label: 'Mean answer time', colorVar: '--accent', unit: 'ms', values: buckets.map((b) => b.answer_ms) }}
        summary={stats.data ? deliverySummary(stats.data.totals) : 'Loading the last hour…'}
      />
    </Panel>
  );
}
