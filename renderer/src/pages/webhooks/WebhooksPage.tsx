import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { getQuery, getRequest } from '../../api/get-query.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState, NoSuchPage } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ListPanel } from '../../components/ListView.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AddressPagination } from '../../components/Pagination.tsx';
import { Link, positiveInt, useSearchParams } from '../../router.tsx';
import { formatDateTime, formatShortDateTime } from '../../components/date-time.ts';
import { NewWebhookPanel, RegisterWebhookForm } from './RegisterWebhookForm.tsx';
import { TestEventPanel } from './TestEventPanel.tsx';
import { ActiveSwitch, DeleteWebhookDialog, EventBadges, ToggleFeedback, useActiveToggle } from './webhook-controls.tsx';
import { microsToIso } from '../../api/webhook-format.ts';
import type { Webhook, WebhookWithSecret } from '../../api/webhook-types.ts';
import { Loading } from '../../components/QueryState.tsx';
import { ExhaustedNotices } from '../../components/webhook-notices.tsx';

function WebhookCard({
  webhook,
  canEdit,
  onChanged,
  onDelete,
}: {
  webhook: Webhook;
  canEdit: boolean;
  onChanged(w: Webhook): void;
  onDelete(): void;
}) {
  const created = microsToIso(webhook.created_on);
  const toggle = useActiveToggle(webhook, onChanged);
  return (
    <li className={`webhook-card ${webhook.is_active ? '' : 'webhook-card-inactive'}`} aria-label={webhook.url}>
      <div className="webhook-card-main">
        <Link to={`/webhooks/${webhook.uuid}`} className="webhook-url" title="Open the delivery log">
          {webhook.url}
        </Link>
        <div className="webhook-meta">
          <EventBadges events={webhook.events} />
          {webhook.disabled_reason && !webhook.is_active && (
            <span className="badge badge-failed" title={webhook.disabled_reason}>
              Disabled automatically
            </span>
          )}
          <span className="muted" title={formatDateTime(created)}>
            Registered {formatShortDateTime(created)}
          </span>
        </div>
      </div>
      <div className="webhook-card-actions">
        <ActiveSwitch webhook={webhook} disabled={!canEdit} running={toggle.running} onToggle={() => void toggle.run()} />
        <Link to={`/webhooks/${webhook.uuid}`} className="button button-small">
          Delivery log
        </Link>
        {canEdit && (
          <button type="button" className="button button-small button-danger-quiet" onClick={onDelete} aria-label={`Delete ${webhook.url}`}>
            Delete
          </button>
        )}
      </div>
      {canEdit && (
        <div className="webhook-card-feedback">
          <ToggleFeedback toggle={toggle} webhook={webhook} />
        </div>
      )}
    </li>
  );
}

export function WebhooksPage() {
  const { session } = useSignedIn();
  const canEdit = session.role !== 'viewer';
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const perPage = positiveInt(params.get('per_page'), 10);
  const listParams = { query: { organization_uuid: session.organization_uuid, page, per_page: perPage } };
  const request = getRequest('/api/webhooks', listParams);
  const webhooks = useQuery({ ...getQuery('/api/webhooks', listParams), placeholderData: keepPreviousData });
  const settings = useQuery(getQuery('/api/settings', {}));
  const queryClient = useQueryClient();
  const [registered, setRegistered] = useState<WebhookWithSecret | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [deleted, setDeleted] = useState<string | null>(null);
  const { data } = webhooks;
  const reload = () => void queryClient.invalidateQueries({ queryKey: ['/api/webhooks'] });

  const setItems = (update: (items: Webhook[]) => Webhook[]) =>
    queryClient.setQueryData(
      getQuery('/api/webhooks', listParams).queryKey,
      (current) => current && { ...current, items: update(current.items) },
    );
  const replace = (next: Webhook) => setItems((items) => items.map((w) => (w.uuid === next.uuid ? next : w)));

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Where this organization's check-in, check-out and delivery events are sent: encrypted, signed, retried, and every attempt logged."
      />
      <ExhaustedNotices />
      <ListPanel title="Your webhooks" list={webhooks}>
        <ErrorNotice error={webhooks.error} onRetry={reload} />
        {deleted && (
          <p className="notice notice-success" role="status">
            Webhook <code className="break">{deleted}</code> was deleted.
          </p>
        )}
        {!data && webhooks.isFetching && <Loading>Loading webhooks…</Loading>}
        {data &&
          data.items.length === 0 &&
          (page > 1 && data.total > 0 ? (
            <NoSuchPage page={page} onFirstPage={() => setParams({ page: null })} />
          ) : (
            <EmptyState title="No webhooks yet">
              <p>
                {canEdit
                  ? 'Register the address of your app below (for a local app, e.g. http://127.0.0.1:9000/hooks), then send a test event to see the delivery arrive.'
                  : 'An editor or admin can register one; this session uses a viewer key.'}
              </p>
            </EmptyState>
          ))}
        {data && data.items.length > 0 && (
          <ul className="webhook-list" aria-label="Webhooks" aria-busy={webhooks.isFetching}>
            {data.items.map((w) => (
              <WebhookCard key={w.uuid} webhook={w} canEdit={canEdit} onChanged={replace} onDelete={() => setDeleting(w)} />
            ))}
          </ul>
        )}
        {data && data.total > data.per_page && <AddressPagination data={data} noun={['webhook', 'webhooks']} setParams={setParams} />}
        <CurlDisclosure request={request} />
      </ListPanel>

      {canEdit ? (
        <>
          <section className="panel">
            {registered ? (
              <NewWebhookPanel webhook={registered} onDone={() => setRegistered(null)} />
            ) : (
              <RegisterWebhookForm
                organizationUuid={session.organization_uuid}
                allowHttp={settings.data?.allow_http_webhooks}
                onRegistered={(w) => {
                  setDeleted(null);
                  setRegistered(w);
                  reload();
                }}
              />
            )}
          </section>
          <section className="panel">
            <TestEventPanel organizationUuid={session.organization_uuid} />
          </section>
        </>
      ) : (
        <section className="panel">
          <h2>Register a webhook or send a test event</h2>
          <p className="muted">
            This session uses a viewer key, which reads only. Sign in with an editor or admin key to register webhooks and send test events.
          </p>
        </section>
      )}

      {deleting && (
        <DeleteWebhookDialog
          webhook={deleting}
          onCancel={() => setDeleting(null)}
          onDeleted={() => {
            setDeleted(deleting.url);
            setDeleting(null);
            setItems((items) => items.filter((w) => w.uuid !== deleting.uuid));
            reload();
          }}
        />
      )}
    </>
  );
}
