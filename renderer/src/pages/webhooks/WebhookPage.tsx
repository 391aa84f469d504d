import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type ApiRequest, call } from '../../api/client.ts';
import type { Page } from '../../api/types.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { getQuery, getRequest } from '../../api/get-query.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState, ResetEmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Loading, PageLoading } from '../../components/QueryState.tsx';
import { AddressPagination } from '../../components/Pagination.tsx';
import { SelectField } from '../../components/SelectField.tsx';
import type { DeliveryAttemptEvent } from '../../live/events.ts';
import { useLiveEvent, useLiveStore, useRefetchOnReconnect } from '../../live/live-store.ts';
import { Link, navigate, positiveInt, useSearchParams } from '../../router.tsx';
import { formatDateTime } from '../../components/date-time.ts';
import { BulkRedeliverButton } from './BulkRedeliver.tsx';
import { DeliveryCard } from './DeliveryLog.tsx';
import { DeliveryChart } from './DeliveryChart.tsx';
import { ActiveSwitch, DeleteWebhookDialog, EventBadges, ToggleFeedback, useActiveToggle } from './webhook-controls.tsx';
import { webhookPath } from '../../api/webhook-path.ts';
import { deliveryStatusLabels, microsToIso } from '../../api/webhook-format.ts';
import { DELIVERY_STATUSES, type Delivery, type Webhook, type WebhookWithSecret } from '../../api/webhook-types.ts';
import { Panel } from '../../components/Panel.tsx';
import { ActionButton } from '../../components/FormActions.tsx';
import { Facts } from '../../components/Facts.tsx';
import { SecretField } from '../../components/SecretField.tsx';
import { DisabledNotice, ExhaustedNotices } from '../../components/webhook-notices.tsx';
import { RetryScheduleForm } from './RetryScheduleForm.tsx';
import { SandboxDiagnosticsSwitch } from './SandboxDiagnostics.tsx';

const POLL_WITHOUT_LIVE_MS = 3_000;

/** The delivery after one more attempt, as the live event tells it. */
function withAttempt(delivery: Delivery, event: DeliveryAttemptEvent): Delivery {
  const { attempt, attempted_on, status_code, duration_ms, error, response_excerpt } = event;
  // What was sent and the answer in full come with the delivery log, read again after the event.
  const sent = {
    request_headers: null,
    request_body: null,
    inbox_message_uuid: null,
    response_headers: null,
    response_body: null,
    response_body_truncated: false,
  };
  const attempts = [
    ...delivery.attempts.filter((a) => a.attempt !== attempt),
    { attempt, attempted_on, status_code, duration_ms, error, response_excerpt, ...sent },
  ];
  return {
    ...delivery,
    status: event.status,
    next_attempt_on: event.next_attempt_on,
    attempt_count: Math.max(delivery.attempt_count, attempt),
    attempts: attempts.sort((a, b) => a.attempt - b.attempt),
  };
}

function SecretReveal({ uuid }: { uuid: string }) {
  const [secret, setSecret] = useState<string | null>(null);
  const request: ApiRequest = { method: 'GET', path: webhookPath(uuid), query: { include_secret: 'true' } };
  const reveal = useApiAction(async () => setSecret((await call<WebhookWithSecret>(request)).secret));
  return (
    <div className="secret-reveal">
      <p className="muted">
        The signing secret keys the <code>X-Service-Signature</code> HMAC of every delivery, and the AES key is derived from that signature.
      </p>
      {secret === null ? (
        <ActionButton action={reveal} className="button button-small" busyLabel="Revealing…">
          Reveal secret
        </ActionButton>
      ) : (
        <SecretField label="Signing secret" secret={secret} copyLabel="Copy secret">
          <button type="button" className="button button-small" onClick={() => setSecret(null)}>
            Hide
          </button>
        </SecretField>
      )}
      <ErrorNotice error={reveal.error} onDismiss={reveal.clearError} />
      <CurlDisclosure request={request} label="Show curl to reveal the secret" />
    </div>
  );
}

function WebhookSwitch({ webhook, canEdit, onChanged }: { webhook: Webhook; canEdit: boolean; onChanged(next: Webhook): void }) {
  const toggle = useActiveToggle(webhook, onChanged);
  return (
    <div className="switch-block">
      <div className="switch-row">
        <ActiveSwitch webhook={webhook} disabled={!canEdit} running={toggle.running} onToggle={() => void toggle.run()} />
        <span className="muted">
          {webhook.is_active
            ? 'Receives every event it subscribes to.'
            : 'Inactive: no new deliveries, and pending retries were stopped. Turn it on to receive events and to redeliver.'}
        </span>
      </div>
      {canEdit && <ToggleFeedback toggle={toggle} webhook={webhook} />}
    </div>
  );
}

export function WebhookPage({ uuid }: { uuid: string }) {
  const { session } = useSignedIn();
  const canEdit = session.role !== 'viewer';
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const page = positiveInt(params.get('page'), 1);
  const perPage = positiveInt(params.get('per_page'), 10);
  const highlight = params.get('delivery');
  const [deleting, setDeleting] = useState(false);

  const webhookQuery = getQuery('/api/webhooks/uuid/{uuid}', { path: { uuid } });
  const webhook = useQuery(webhookQuery);
  const deliveriesParams = {
    path: { uuid },
    query: { organization_uuid: session.organization_uuid, status: DELIVERY_STATUSES.find((s) => s === status), page, per_page: perPage },
  };
  const deliveriesRequest = getRequest('/api/webhooks/uuid/{uuid}/deliveries', deliveriesParams);
  const deliveriesQuery = getQuery('/api/webhooks/uuid/{uuid}/deliveries', deliveriesParams);
  const deliveries = useQuery({ ...deliveriesQuery, placeholderData: keepPreviousData });
  const { data, refetch } = deliveries;
  const reload = useCallback(() => void refetch(), [refetch]);
  const queryClient = useQueryClient();
  const setData = (update: (current: Page<Delivery> | undefined) => Page<Delivery> | undefined) =>
    queryClient.setQueryData(deliveriesQuery.queryKey, update);

  // A delivery that is not on this page yet (a new event) is fetched, at most once a second.
  const lastReload = useRef(0);
  const reloadSoon = () => {
    if (Date.now() - lastReload.current < 1_000) return;
    lastReload.current = Date.now();
    reload();
  };
  // After an attempt, the log is read again shortly for what was sent and the inspector message.
  const detailsTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reloadDetails = () => {
    if (detailsTimer.current) return;
    detailsTimer.current = setTimeout(() => {
      detailsTimer.current = null;
      reload();
    }, 400);
  };
  useEffect(
    () => () => {
      if (detailsTimer.current) clearTimeout(detailsTimer.current);
    },
    [],
  );
  useLiveEvent('delivery.attempt', (event) => {
    if (event.webhook_uuid !== uuid || !data) return;
    if (data.items.some((d) => d.delivery_id === event.delivery_id)) {
      // It no longer matches the status filter: the page is read again.
      if (status !== '' && event.status !== status) {
        reload();
        return;
      }
      setData(
        (current) =>
          current && { ...current, items: current.items.map((d) => (d.delivery_id === event.delivery_id ? withAttempt(d, event) : d)) },
      );
      // The attempt that ends a delivery also sets its reason (e.g. schedule used up): read it back.
      if (event.status === 'failed') reload();
      else reloadDetails();
    } else if (page === 1) {
      reloadSoon();
    }
  });
  useLiveEvent('delivery.queued', (event) => {
    if (event.webhook_uuid === uuid) reload();
  });
  useRefetchOnReconnect(() => {
    reload();
    void webhook.refetch();
  });

  const anyPending = data?.items.some((d) => d.status === 'pending') ?? false;
  const liveOpen = useLiveStore((s) => s.status === 'open');
  useEffect(() => {
    if (liveOpen || !anyPending) return;
    const timer = setInterval(reload, POLL_WITHOUT_LIVE_MS);
    return () => clearInterval(timer);
  }, [liveOpen, anyPending, reload]);

  // "Next attempt in 4 s" counts down.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!anyPending) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [anyPending]);

  const back = <Link to="/webhooks">← All webhooks</Link>;
  const hook = webhook.data;
  if (!hook) {
    return <PageLoading title="Webhook" back={back} query={webhook} loading="Loading the webhook…" />;
  }

  const created = microsToIso(hook.created_on);
  const updated = microsToIso(hook.updated_on);
  const filtered = status !== '';

  return (
    <>
      <PageHeader title="Webhook" back={back} description={<code className="break webhook-title-url">{hook.url}</code>} />
      <DisabledNotice webhook={hook} canEdit={canEdit} onChanged={(next) => queryClient.setQueryData(webhookQuery.queryKey, next)} />
      <ExhaustedNotices webhookUuid={hook.uuid} />
      <Panel
        title="Settings"
        actions={
          canEdit && (
            <button type="button" className="button button-small button-danger-quiet" onClick={() => setDeleting(true)}>
              Delete webhook
            </button>
          )
        }
      >
        <Facts
          facts={{
            Events: <EventBadges events={hook.events} />,
            Registered: formatDateTime(created),
            'Last changed': formatDateTime(updated),
            uuid: <code>{hook.uuid}</code>,
          }}
        />
        <WebhookSwitch webhook={hook} canEdit={canEdit} onChanged={(next) => queryClient.setQueryData(webhookQuery.queryKey, next)} />
        <SandboxDiagnosticsSwitch
          webhook={hook}
          canEdit={canEdit}
          onChanged={(next) => queryClient.setQueryData(webhookQuery.queryKey, next)}
        />
        <RetryScheduleForm
          key={hook.updated_on}
          webhook={hook}
          canEdit={canEdit}
          onChanged={(next) => queryClient.setQueryData(webhookQuery.queryKey, next)}
        />
        {canEdit ? <SecretReveal uuid={hook.uuid} /> : <p className="muted">An editor or admin key can reveal the signing secret.</p>}
      </Panel>

      <DeliveryChart webhookUuid={hook.uuid} />

      <Panel title="Deliveries" actions={null}>
        <div className="toolbar">
          <SelectField label="Status" value={status} onChange={(v) => setParams({ status: v, page: null, delivery: null })}>
            <option value="">All statuses</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {deliveryStatusLabels[s]}
              </option>
            ))}
          </SelectField>
          <div className="toolbar-end">
            {canEdit && <BulkRedeliverButton webhookUuid={hook.uuid} webhookActive={hook.is_active} onDone={reload} />}
            <button type="button" className="button button-small" onClick={reload} disabled={deliveries.isFetching}>
              Refresh
            </button>
          </div>
        </div>
        <ErrorNotice error={deliveries.error} onRetry={reload} />
        {!data && deliveries.isFetching && <Loading>Loading deliveries…</Loading>}
        {data &&
          data.items.length === 0 &&
          (filtered ? (
            <ResetEmptyState
              title={`No ${deliveryStatusLabels[status as Delivery['status']]?.toLowerCase() ?? ''} deliveries`}
              reset="Show all deliveries"
              onReset={() => setParams({ status: null, page: null })}
            />
          ) : (
            <EmptyState
              title="No deliveries yet"
              action={
                canEdit ? (
                  <Link to="/webhooks" className="button button-primary">
                    Send a test event from the Webhooks page
                  </Link>
                ) : undefined
              }
            >
              <p>
                Every event this webhook subscribes to appears here with each attempt: time, status code, duration and the start of the
                answer.
              </p>
            </EmptyState>
          ))}
        {data && data.items.length > 0 && (
          <ul className="delivery-list" aria-label="Deliveries" aria-busy={deliveries.isFetching}>
            {data.items.map((d) => (
              <li key={d.delivery_id}>
                <DeliveryCard
                  delivery={d}
                  webhookUrl={hook.url}
                  webhookActive={hook.is_active}
                  canEdit={canEdit}
                  highlighted={d.delivery_id === highlight}
                  initialAttempt={d.delivery_id === highlight ? positiveInt(params.get('attempt'), 0) || undefined : undefined}
                  now={now}
                  onRedelivered={(next) =>
                    setData(
                      (current) =>
                        current && { ...current, items: current.items.map((x) => (x.delivery_id === next.delivery_id ? next : x)) },
                    )
                  }
                />
              </li>
            ))}
          </ul>
        )}
        {data && data.total > 0 && (
          <AddressPagination data={data} noun={['delivery', 'deliveries']} setParams={setParams} reset={{ delivery: null }} />
        )}
        <CurlDisclosure request={deliveriesRequest} />
      </Panel>
      {deleting && (
        <DeleteWebhookDialog
          webhook={hook}
          onCancel={() => setDeleting(false)}
          onDeleted={() => {
            setDeleting(false);
            navigate('/webhooks');
          }}
        />
      )}
    </>
  );
}
