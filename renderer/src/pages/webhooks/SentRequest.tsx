import { useState } from 'react';
import { CopyButton } from '../../components/CopyButton.tsx';
import { HeaderTable } from '../../components/HeaderTable.tsx';
import { JsonTree } from '../../components/JsonTree.tsx';
import { Link } from '../../router.tsx';
import type { Delivery, DeliveryAttempt } from '../../api/webhook-types.ts';
import { CodeBlock } from '../../components/CodeBlock.tsx';

function inspectorLink(inboxUuid: string, messageUuid: string): string {
  return `/inspector/${encodeURIComponent(inboxUuid)}/messages/${encodeURIComponent(messageUuid)}`;
}

/**
 * What the server sent for a delivery: the last attempt's request headers and encrypted body,
 * the payload decrypted with the webhook's secret, and where the local inbox shows each attempt.
 */
export function SentRequest({ delivery, url }: { delivery: Delivery; url: string }) {
  const sent = delivery.attempts.findLast(
    (a): a is DeliveryAttempt & { request_headers: Record<string, string>; request_body: string } =>
      a.request_headers !== null && a.request_body !== null,
  );
  const inboxUuid = delivery.inbox_uuid;
  const received = inboxUuid ? delivery.attempts.filter((a) => a.inbox_message_uuid) : [];
  // Mounted when opened: ten closed deliveries with their payload trees were ~10,000 elements.
  const [opened, setOpened] = useState(false);
  if (!sent) return null;
  return (
    <details className="sent-request" onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary>What was sent (attempt {sent.attempt}): headers, encrypted body and decrypted payload</summary>
      {opened && (
        <>
          {inboxUuid && (
            <p className="sent-inbox">
              The URL is a local inbox of this server.{' '}
              {received.length > 0 ? (
                received.map((a, i) => (
                  <span key={a.attempt}>
                    {i > 0 && ' · '}
                    <Link to={inspectorLink(inboxUuid, a.inbox_message_uuid ?? '')}>Open attempt {a.attempt} in the inspector</Link>
                  </span>
                ))
              ) : (
                <Link to={`/inspector/${encodeURIComponent(inboxUuid)}`}>Open the inbox in the inspector</Link>
              )}
            </p>
          )}
          <h4>Request headers</h4>
          <HeaderTable label={`Request headers of delivery ${delivery.delivery_id}`} first={['POST', url]} headers={sent.request_headers} />
          <h4>
            Body as sent (encrypted) <CopyButton text={sent.request_body} label="Copy body" />
          </h4>
          <CodeBlock label={`Encrypted body of delivery ${delivery.delivery_id}`} className="json-block sent-body">
            {sent.request_body}
          </CodeBlock>
          <h4>Decrypted payload</h4>
          {delivery.payload === null ? (
            <p className="text-error">The body could not be decrypted with the webhook's secret.</p>
          ) : (
            <>
              <p className="muted">
                Decrypted with this webhook's secret (the server keeps it):{' '}
                {delivery.payload_verified ? (
                  'the X-Service-Signature HMAC matches.'
                ) : (
                  <span className="text-error">the X-Service-Signature HMAC does not match.</span>
                )}
              </p>
              <JsonTree value={delivery.payload} label={`Decrypted payload of delivery ${delivery.delivery_id}`} openDepth={2} />
            </>
          )}
        </>
      )}
    </details>
  );
}
