import { useQuery } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { Link } from '../../router.tsx';

/** A later attempt of the same delivery: a retry or a resend, not a duplicate to worry about. */
export function isRetry(message: { delivery_id: string | null; attempt?: number | null }): boolean {
  return message.delivery_id !== null && (message.attempt ?? 1) > 1;
}

/**
 * The delivery id of a message and, when this server sent it, a link to the attempt in the
 * webhook's delivery log (both known from the server's records of what it sent).
 */
export function DeliveryAttemptLink({ deliveryId, attempt }: { deliveryId: string | null; attempt: number | null }) {
  const { session } = useSignedIn();
  const lookup = useQuery({
    ...getQuery('/api/webhook-deliveries/{delivery_id}', {
      path: { delivery_id: deliveryId ?? '' },
      query: { organization_uuid: session.organization_uuid },
    }),
    enabled: deliveryId !== null,
    retry: false,
  });
  if (deliveryId === null) return <>—</>;
  const found = lookup.data;
  return (
    <>
      <code>{deliveryId}</code>
      {attempt !== null && <> · attempt {attempt}</>}
      {found && (
        <>
          {' · '}
          <Link
            to={`/webhooks/${encodeURIComponent(found.webhook_uuid)}?delivery=${encodeURIComponent(deliveryId)}${attempt ? `&attempt=${attempt}` : ''}`}
          >
            Open {attempt ? `attempt ${attempt}` : 'the delivery'} in the delivery log
          </Link>
        </>
      )}
    </>
  );
}
