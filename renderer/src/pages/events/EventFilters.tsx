import { useQuery } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';
import type { ParamChanges } from '../../api/use-list-page.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { SelectField } from '../../components/SelectField.tsx';
import { deliveryStatusLabels } from '../../api/webhook-format.ts';
import { webhookEvents } from '../../api/webhook-events.ts';
import { shortUrl } from './event-text.ts';

export const EVENT_FILTERS = ['type', 'status', 'webhook_uuid'] as const;

/** The events list's filters, kept in the address: event type, a delivery's status, and the webhook. */
export function EventFilters({ params, setParams }: { params: URLSearchParams; setParams(changes: ParamChanges): void }) {
  const { session } = useSignedIn();
  const webhooks = useQuery(getQuery('/api/webhooks', { query: { organization_uuid: session.organization_uuid, per_page: 100 } }));
  const set = (name: (typeof EVENT_FILTERS)[number]) => (value: string) => setParams({ [name]: value || null, page: null });
  return (
    <search className="toolbar" aria-label="Filter events">
      <SelectField label="Event" value={params.get('type') ?? ''} onChange={set('type')}>
        <option value="">All events</option>
        {webhookEvents().map((event) => (
          <option key={event.type} value={event.type}>
            {event.label}
          </option>
        ))}
      </SelectField>
      <SelectField label="Delivery" value={params.get('status') ?? ''} onChange={set('status')}>
        <option value="">Any status</option>
        {Object.entries(deliveryStatusLabels).map(([status, label]) => (
          <option key={status} value={status}>
            {label}
          </option>
        ))}
      </SelectField>
      <SelectField label="Webhook" value={params.get('webhook_uuid') ?? ''} onChange={set('webhook_uuid')}>
        <option value="">All webhooks</option>
        {webhooks.data?.items.map((w) => (
          <option key={w.uuid} value={w.uuid}>
            {shortUrl(w.url)}
          </option>
        ))}
      </SelectField>
    </search>
  );
}
