import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { getQuery } from '../../api/get-query.ts';
import type { Schemas } from '../../api/types.ts';
import { writeCall } from '../../api/write-call.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { countOf } from '../../../../common/count-words.ts';

type BulkRedeliverResult = Schemas['BulkRedeliverResult'];

function describe(result: BulkRedeliverResult): string {
  const parts = [`Redelivered ${countOf(result.redelivered, 'failed delivery', 'failed deliveries')}.`];
  if (result.skipped > 0) parts.push(`${countOf(result.skipped, 'was', 'were')} skipped: the webhook is inactive.`);
  if (result.remaining > 0)
    parts.push(`${result.remaining.toLocaleString()} more failed: redeliver again (at most ${result.cap.toLocaleString()} at a time).`);
  return parts.join(' ');
}

function RedeliverDialog({
  webhookUuid,
  onCancel,
  onDone,
}: {
  webhookUuid: string;
  onCancel(): void;
  onDone(result: BulkRedeliverResult): void;
}) {
  const { session } = useSignedIn();
  const failed = useQuery({
    ...getQuery('/api/webhooks/deliveries', {
      query: { organization_uuid: session.organization_uuid, webhook_uuid: webhookUuid, status: 'failed', page: 1, per_page: 1 },
    }),
    staleTime: 0,
  });
  const redeliver = writeCall('post', '/api/webhooks/deliveries/redeliver', {
    body: { organization_uuid: session.organization_uuid, failed: true, webhook_uuid: webhookUuid },
  });
  const count = failed.data?.total;
  return (
    <ConfirmDialog
      title="Redeliver failed deliveries?"
      confirmLabel={count === undefined ? 'Redeliver failed' : `Redeliver ${countOf(count, 'delivery', 'deliveries')}`}
      busyLabel="Queuing…"
      request={redeliver.request}
      action={async () => onDone(await redeliver.send())}
      onCancel={onCancel}
    >
      <ErrorNotice error={failed.error} onRetry={() => void failed.refetch()} />
      <p role="status">
        {count === undefined
          ? 'Counting the failed deliveries…'
          : count === 0
            ? 'This webhook has no failed deliveries.'
            : `${countOf(count, 'failed delivery', 'failed deliveries')} of this webhook will be sent again now, oldest first, each with the same delivery id, the next attempt number and a fresh retry schedule.`}
      </p>
    </ConfirmDialog>
  );
}

/** "Redeliver failed…" in a webhook's delivery log: every failed delivery of the webhook sent again, after a confirm with their number. */
export function BulkRedeliverButton({
  webhookUuid,
  webhookActive,
  onDone,
}: {
  webhookUuid: string;
  webhookActive: boolean;
  onDone(): void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<BulkRedeliverResult | null>(null);
  return (
    <>
      <button
        type="button"
        className="button button-small"
        onClick={() => {
          setResult(null);
          setConfirming(true);
        }}
        disabled={!webhookActive}
        title={webhookActive ? undefined : 'The webhook is inactive: activate it to redeliver.'}
      >
        Redeliver failed…
      </button>
      {result && (
        <p className="notice notice-success bulk-redeliver-result" role="status">
          {describe(result)}
        </p>
      )}
      {confirming && (
        <RedeliverDialog
          webhookUuid={webhookUuid}
          onCancel={() => setConfirming(false)}
          onDone={(answer) => {
            setResult(answer);
            setConfirming(false);
            onDone();
          }}
        />
      )}
    </>
  );
}
