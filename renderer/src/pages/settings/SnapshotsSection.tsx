import { type FormEvent, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fieldProblem } from '../../api/describe-error.ts';
import { getQuery, getRequest } from '../../api/get-query.ts';
import type { Schemas } from '../../api/types.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { writeCall } from '../../api/write-call.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SubmitButton } from '../../components/FormActions.tsx';
import { TextField } from '../../components/FormField.tsx';
import { Panel } from '../../components/Panel.tsx';
import { ACTIONS_HEADING, Table } from '../../components/Table.tsx';
import { formatBytes } from '../../api/import-api.ts';
import { formatDateTime, formatShortDateTime } from '../../components/date-time.ts';
import { countOf } from '../../../../common/count-words.ts';

type Snapshot = Schemas['Snapshot'];

const listRequest = getRequest('/api/snapshots', {});
const snapshotsQuery = getQuery('/api/snapshots', {});
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function RestoreDialog({ snapshot, onCancel, onDone }: { snapshot: Snapshot; onCancel(): void; onDone(message: string): void }) {
  const restore = writeCall('post', '/api/snapshots/{name}/restore', { params: { path: { name: snapshot.name } } });
  return (
    <ConfirmDialog
      title={<>Restore “{snapshot.name}”?</>}
      confirmLabel="Replace and restore"
      busyLabel="Restoring…"
      request={restore.request}
      action={async () => {
        const answer = await restore.send();
        onDone(
          `Restored “${answer.name}” of ${formatDateTime(answer.created_on)}: ${countOf(answer.restored.qrcodes ?? 0, 'QR code')}, ` +
            `${countOf(answer.restored.appointment_schedules ?? 0, 'appointment')}, ${countOf(answer.restored.webhooks ?? 0, 'webhook')}, ` +
            `${countOf(answer.restored.inboxes ?? 0, 'inbox', 'inboxes')}.`,
        );
      }}
      onCancel={onCancel}
    >
      <p>
        All of this organization’s data is replaced by the snapshot saved {formatDateTime(snapshot.created_on)}: QR codes, appointments,
        services, import tasks, webhooks and their deliveries, inboxes and their messages, and settings. What was made since is deleted. API
        keys stay. It happens at once and completely, or not at all.
      </p>
    </ConfirmDialog>
  );
}

function DeleteDialog({ snapshot, onCancel, onDone }: { snapshot: Snapshot; onCancel(): void; onDone(): void }) {
  const remove = writeCall('delete', '/api/snapshots/{name}', { params: { path: { name: snapshot.name } } });
  return (
    <ConfirmDialog
      title={<>Delete snapshot “{snapshot.name}”?</>}
      confirmLabel="Delete snapshot"
      busyLabel="Deleting…"
      request={remove.request}
      action={async () => void (await remove.send())}
      onDone={onDone}
      onCancel={onCancel}
    >
      <p>The snapshot file ({formatBytes(snapshot.size_bytes)}) is deleted. The organization’s data is not touched.</p>
    </ConfirmDialog>
  );
}

function EmptyDialog({
  organizationName,
  onCancel,
  onDone,
}: {
  organizationName: string;
  onCancel(): void;
  onDone(message: string): void;
}) {
  const reset = writeCall('post', '/api/reset', { body: { empty: true } });
  return (
    <ConfirmDialog
      title={<>Empty {organizationName}?</>}
      confirmLabel="Delete all data"
      busyLabel="Deleting…"
      request={reset.request}
      action={async () => {
        const { deleted } = await reset.send();
        onDone(
          `Deleted ${countOf(deleted.qrcodes, 'QR code')}, ${countOf(deleted.appointments, 'appointment')}, ` +
            `${countOf(deleted.webhooks, 'webhook')} and ${countOf(deleted.inboxes, 'inbox', 'inboxes')}.`,
        );
      }}
      onCancel={onCancel}
    >
      <p>
        This deletes all of <strong>{organizationName}</strong>’s data (QR codes, appointments, services, import tasks, webhooks, inboxes)
        and adds nothing. API keys, settings and snapshots stay. Save a snapshot first to be able to bring it back.
      </p>
    </ConfirmDialog>
  );
}

/** Settings > Snapshots: save, list, restore and delete snapshots of the organization's data, and empty it (admin). */
export function SnapshotsSection() {
  const { session } = useSignedIn();
  if (session.role !== 'admin') {
    return (
      <Panel title="Snapshots">
        <p className="notice notice-info">
          Only an admin key can save and restore snapshots. This session uses {session.role === 'editor' ? 'an' : 'a'} {session.role} key.
        </p>
      </Panel>
    );
  }
  return <AdminSnapshots organizationName={session.organization_name} />;
}

function AdminSnapshots({ organizationName }: { organizationName: string }) {
  const snapshots = useQuery(snapshotsQuery);
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const [restoring, setRestoring] = useState<Snapshot | null>(null);
  const [deleting, setDeleting] = useState<Snapshot | null>(null);
  const [emptying, setEmptying] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const taken = snapshots.data?.items.some((s) => s.name === name.trim()) ?? false;
  const saveCall = writeCall('post', '/api/snapshots', { body: { name: name.trim(), replace: taken } });
  const save = useApiAction(async () => {
    const saved = await saveCall.send();
    setNotice(`Saved snapshot “${saved.name}” (${formatBytes(saved.size_bytes)}, ${saved.counts.qrcodes ?? 0} QR codes).`);
    setName('');
    await queryClient.invalidateQueries({ queryKey: snapshotsQuery.queryKey });
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const problem = NAME_PATTERN.test(name.trim()) ? null : 'Use 1 to 64 letters, digits, dots, dashes or underscores, e.g. before-ci.';
    setNameProblem(problem);
    if (!problem) void save.run();
  };
  const refresh = () => void queryClient.invalidateQueries({ queryKey: snapshotsQuery.queryKey });

  /** A restore or an emptying changed every list: say what was done and read them again. */
  const afterDataReplaced = (message: string) => {
    setRestoring(null);
    setEmptying(false);
    setNotice(message);
    void queryClient.invalidateQueries();
  };
  return (
    <Panel title="Snapshots">
      <p className="muted">
        Save all of this organization’s data under a name and bring it back later, e.g. between test runs. A snapshot holds the QR codes,
        appointments, services, import tasks, webhooks with their deliveries, inboxes with their messages, and settings; not API keys, not
        other organizations. The same as <code>qr-sandbox snapshot save NAME</code> and <code>snapshot restore NAME</code>.
      </p>
      {notice && (
        <p className="notice notice-success" role="status">
          {notice}
        </p>
      )}
      <ErrorNotice error={snapshots.error} onRetry={() => void snapshots.refetch()} />
      {snapshots.data && snapshots.data.items.length === 0 && (
        <EmptyState title="No snapshots yet">
          <p>Save one below.</p>
        </EmptyState>
      )}
      {snapshots.data && snapshots.data.items.length > 0 && (
        <Table label="Snapshots" headings={['Name', 'Size', 'Saved', ACTIONS_HEADING]}>
          {snapshots.data.items.map((s) => (
            <tr key={s.name}>
              <td>
                <code>{s.name}</code>
              </td>
              <td className="nowrap">{formatBytes(s.size_bytes)}</td>
              <td className="nowrap" title={formatDateTime(s.created_on)}>
                {formatShortDateTime(s.created_on)}
              </td>
              <td className="cell-actions">
                <button type="button" className="button button-small" onClick={() => setRestoring(s)} aria-label={`Restore ${s.name}`}>
                  Restore…
                </button>
                <button
                  type="button"
                  className="button button-small button-danger-quiet"
                  onClick={() => setDeleting(s)}
                  aria-label={`Delete ${s.name}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <CurlDisclosure request={listRequest} />
      <form className="subform" onSubmit={submit} aria-labelledby="save-snapshot-title" noValidate>
        <h3 id="save-snapshot-title">Save a snapshot</h3>
        <div className="form-row">
          <TextField
            id="snapshot-name"
            label="Save as"
            value={name}
            onChange={(value) => {
              setName(value);
              setNameProblem(null);
            }}
            placeholder="a name, e.g. before-ci"
            maxLength={64}
            hint={taken ? 'A snapshot of that name exists: saving replaces it.' : undefined}
            problem={nameProblem ?? fieldProblem(save.error, 'name')}
          />
          <SubmitButton running={save.running} busyLabel="Saving…" inRow>
            {taken ? 'Replace snapshot' : 'Save snapshot'}
          </SubmitButton>
        </div>
        <ErrorNotice error={save.error} onDismiss={save.clearError} fieldsShown={['name']} />
        <CurlDisclosure request={saveCall.request} />
      </form>
      <div className="form-actions">
        <button type="button" className="button button-danger" onClick={() => setEmptying(true)}>
          Empty the organization…
        </button>
      </div>
      {restoring && <RestoreDialog snapshot={restoring} onCancel={() => setRestoring(null)} onDone={afterDataReplaced} />}
      {deleting && (
        <DeleteDialog
          snapshot={deleting}
          onCancel={() => setDeleting(null)}
          onDone={() => {
            setNotice(`Deleted snapshot “${deleting.name}”.`);
            setDeleting(null);
            refresh();
          }}
        />
      )}
      {emptying && <EmptyDialog organizationName={organizationName} onCancel={() => setEmptying(false)} onDone={afterDataReplaced} />}
    </Panel>
  );
}
