import { type FormEvent, useState } from 'react';
import { fieldProblem } from '../../api/describe-error.ts';
import { type ApiKey, type IssuedApiKey, ROLES, type Role } from '../../api/types.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getQuery, getRequest } from '../../api/get-query.ts';
import { writeCall } from '../../api/write-call.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDateTime, formatShortDateTime } from '../../components/date-time.ts';
import { ACTIONS_HEADING, Table } from '../../components/Table.tsx';
import { Panel } from '../../components/Panel.tsx';
import { SubmitButton } from '../../components/FormActions.tsx';
import { CreatedPanel, SecretField } from '../../components/SecretField.tsx';
import { FormField, TextField } from '../../components/FormField.tsx';

const roleHelp: Record<Role, string> = {
  viewer: 'Reads only.',
  editor: 'Creates, changes and deletes data, runs imports, manages webhooks.',
  admin: 'Everything, including API keys and settings.',
};

const listRequest = getRequest('/api/api-keys', {});
const keysQuery = getQuery('/api/api-keys', {});

function NewKeyPanel({ issued, name, onDone }: { issued: IssuedApiKey; name: string; onDone(): void }) {
  const credential = `${issued.api_key}:${issued.api_secret}`;
  const link = `${window.location.origin}/#key=${credential}`;
  return (
    <CreatedPanel title={<>API key “{name}” created</>} actions={<CopyButton text={link} label="Copy sign-in link" />} onDone={onDone}>
      <p>
        <strong>Copy the secret now: it is shown only this once.</strong> Only its hash is stored.
      </p>
      <SecretField
        label="Key and secret"
        secret={credential}
        copyLabel="Copy key and secret"
        hint={
          <>
            Send it as <code>Authorization: Bearer {issued.api_key}:…</code>, or sign in with this link:{' '}
            <code className="break">
              {window.location.origin}/#key={issued.api_key}:…
            </code>
          </>
        }
      />
    </CreatedPanel>
  );
}

function RevokeDialog({ apiKey, onCancel, onRevoked }: { apiKey: ApiKey; onCancel(): void; onRevoked(): void }) {
  const revoke = writeCall('delete', '/api/api-keys/{api_key}', { params: { path: { api_key: apiKey.api_key } } });
  return (
    <ConfirmDialog
      title={<>Revoke “{apiKey.name}”?</>}
      confirmLabel="Revoke key"
      busyLabel="Revoking…"
      request={revoke.request}
      action={async () => void (await revoke.send())}
      onDone={onRevoked}
      onCancel={onCancel}
    >
      <p>
        Key <code>{apiKey.api_key}</code> ({apiKey.role}) stops working at once. Scripts and apps that use it will get 401 Unauthorized.
        This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}

export function ApiKeysSection() {
  const { credential } = useSignedIn();
  const keys = useQuery(keysQuery);
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [issued, setIssued] = useState<{ key: IssuedApiKey; name: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [revokedName, setRevokedName] = useState<string | null>(null);
  const createCall = writeCall('post', '/api/api-keys', { body: { name: name.trim(), role } });
  const createRequest = createCall.request;
  const create = useApiAction(async () => {
    const key = await createCall.send();
    setIssued({ key, name: name.trim() });
    setName('');
    void keys.refetch();
  });
  const [nameMissing, setNameMissing] = useState(false);
  const nameProblem = nameMissing ? 'Give the key a name that says what it is for.' : fieldProblem(create.error, 'name');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRevokedName(null);
    setNameMissing(name.trim() === '');
    if (name.trim() === '') return;
    void create.run();
  };

  return (
    <Panel title="API keys" actions={null}>
      <p className="muted">
        Keys let scripts, apps and this GUI call the API. Each request sends{' '}
        <code>Authorization: Bearer &lt;api_key&gt;:&lt;api_secret&gt;</code>.
      </p>
      <ErrorNotice error={keys.error} onRetry={() => void keys.refetch()} />
      {revokedName && (
        <p className="notice notice-success" role="status">
          API key “{revokedName}” was revoked.
        </p>
      )}
      {keys.data && keys.data.items.length === 0 && (
        <EmptyState title="No API keys">
          <p>Create one below.</p>
        </EmptyState>
      )}
      {keys.data && keys.data.items.length > 0 && (
        <Table label="API keys" headings={['Name', 'Key', 'Role', 'Created', ACTIONS_HEADING]}>
          {keys.data.items.map((k) => {
            const mine = k.api_key === credential.apiKey;
            return (
              <tr key={k.api_key}>
                <td>
                  {k.name} {mine && <span className="badge badge-neutral">this session</span>}
                </td>
                <td>
                  <code>{k.api_key}</code>
                </td>
                <td>{k.role}</td>
                <td className="nowrap" title={formatDateTime(k.created_on)}>
                  {formatShortDateTime(k.created_on)}
                </td>
                <td className="cell-actions">
                  <button
                    type="button"
                    className="button button-small button-danger-quiet"
                    onClick={() => setRevoking(k)}
                    disabled={mine}
                    title={mine ? 'This GUI is signed in with this key; sign in with another admin key to revoke it.' : undefined}
                    aria-label={`Revoke ${k.name}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            );
          })}
        </Table>
      )}
      <CurlDisclosure request={listRequest} />

      {issued ? (
        <NewKeyPanel issued={issued.key} name={issued.name} onDone={() => setIssued(null)} />
      ) : (
        <form className="subform" onSubmit={submit} aria-labelledby="create-key-title" noValidate>
          <h3 id="create-key-title">Create an API key</h3>
          <div className="form-row">
            <TextField
              id="key-name"
              label="Name"
              value={name}
              onChange={(value) => {
                setName(value);
                setNameMissing(false);
              }}
              placeholder="What the key is for, e.g. CI import job"
              maxLength={200}
              problem={nameProblem}
            />
            <FormField id="key-role" label="Role" hint={roleHelp[role]}>
              {(control) => (
                <select {...control} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                  {ROLES.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <SubmitButton running={create.running} busyLabel="Creating…" inRow>
              Create API key
            </SubmitButton>
          </div>
          <ErrorNotice error={create.error} onDismiss={create.clearError} fieldsShown={['name']} />
          <CurlDisclosure request={createRequest} />
        </form>
      )}
      {revoking && (
        <RevokeDialog
          apiKey={revoking}
          onCancel={() => setRevoking(null)}
          onRevoked={() => {
            setRevokedName(revoking.name);
            setRevoking(null);
            queryClient.setQueryData(
              keysQuery.queryKey,
              (current) => current && { items: current.items.filter((k) => k.api_key !== revoking.api_key) },
            );
            void keys.refetch();
          }}
        />
      )}
    </Panel>
  );
}
