import { useQuery } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { Link } from '../../router.tsx';

/** The X-Service-Attempt a message came with (1 for the first attempt), or null. */
export function attemptOf(headers: Record<string, string>): number | null {
  const n = Number(headers['x-service-attempt']);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** A later attempt of the same delivery: a retry or a resend, not a duplicate to worry about. */
export function isRetry(message: { delivery_id: string | null; headers: Record<string, string> }): boolean {
  return message.delivery_id !== null && (attemptOf(message.headers) ?? 1) > 1;
}

/**
 * The delivery id of a message and, when this server sent it, a link to the attempt in the
 * webhook's delivery log (matched by X-Service-Delivery-Id and X-Service-Attempt).
 */
export function DeliveryAttemptLink({ deliveryId, headers }: { deliveryId: string | null; headers: Record<string, string> }) {
  const { session } = useSignedIn();
  const attempt = attemptOf(headers);
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
