import '../../components/remote/remote.css';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getQuery } from '../../api/get-query.ts';
import { useSignedIn } from '../../auth/session-store.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Link } from '../../router.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import { profilesRequest, type PublicProfile, remoteTasksPage, removeProfileRequest } from '../../api/remote-api.ts';
import { profilesQuery } from '../../api/profiles-query.ts';
import { ACTIONS_HEADING, Table } from '../../components/Table.tsx';
import { Panel } from '../../components/Panel.tsx';
import { Loading } from '../../components/QueryState.tsx';

const PROFILES_FILE = 'profiles.json';

/** Connection profiles: the real deployments of the service this QR Sandbox can send imports to. */
export function RemoteServicesPage() {
  const { session } = useSignedIn();
  const isAdmin = session.role === 'admin';
  const profiles = useQuery(profilesQuery);
  const settings = useQuery(getQuery('/api/settings', {}));
  const [removing, setRemoving] = useState<PublicProfile | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const items = profiles.data?.items ?? [];
  const dataDir = settings.data?.data_dir;
  const profilesFile = dataDir ? `${dataDir}${dataDir.includes('\\') ? '\\' : '/'}${PROFILES_FILE}` : null;

  return (
    <>
      <PageHeader
        title="Remote services"
        description="Check a file here, then send it to a real deployment of the service and follow its task there. A connection profile holds the deployment’s address and API key."
      />
      <Panel title="Connection profiles">
        <ErrorNotice error={profiles.error} onRetry={() => void profiles.refetch()} />
        {notice && (
          <p className="notice notice-success" role="status">
            {notice}
          </p>
        )}
        {!profiles.data && profiles.isFetching && <Loading>Loading the profiles…</Loading>}
        {profiles.data && items.length === 0 && (
          <EmptyState title="No connection profiles yet">
            <p>
              {isAdmin
                ? 'Add one below with the service’s base URL and an API key and secret from it. Then choose it under “Send to” on the Imports page.'
                : 'An admin adds them here (or with qr-sandbox profile add). Then they appear under “Send to” on the Imports page.'}
            </p>
          </EmptyState>
        )}
        {items.length > 0 && (
          <Table label="Connection profiles" headings={['Name', 'Service', ACTIONS_HEADING]} scrollClassName="table-scroll profiles-table">
            {items.map((p) => (
              <tr key={p.name}>
                <td className="nowrap">
                  <strong>{p.name}</strong>
                </td>
                <td>
                  <span className="profile-url">{p.base_url}</span>
                  <span className="profile-meta">
                    API key <code className="break">{p.api_key}</code>
                    {' · '}
                    {p.organization_uuid ? (
                      <>
                        organization_uuid <code className="break">{p.organization_uuid}</code>
                      </>
                    ) : (
                      'organization asked when importing'
                    )}
                    {' · '}
                    {p.secret_protection === 'none'
                      ? 'secret unencrypted in profiles.json (mode 0600)'
                      : 'secret encrypted by the desktop app (system keychain)'}
                  </span>
                </td>
                <td className="cell-actions">
                  <span className="row-actions profile-actions">
                    <Link to={remoteTasksPage(p.name)} className="button button-small" aria-label={`Tasks on ${p.name}`}>
                      Tasks
                    </Link>
                    {isAdmin && (
                      <button
                        type="button"
                        className="button button-small button-danger-quiet"
                        onClick={() => setRemoving(p)}
                        aria-label={`Remove ${p.name}`}
                      >
                        Remove
                      </button>
                    )}
                  </span>
                </td>
              </tr>
            ))}
          </Table>
        )}
        {items.length > 0 && <p className="field-hint">The secrets stay with this QR Sandbox server and are never shown here.</p>}
        <CurlDisclosure request={profilesRequest} label="Show curl for the list" />
        {isAdmin ? (
          <ProfileForm
            existing={items}
            profilesFile={profilesFile}
            onSaved={(saved) => {
              setNotice(`Profile ${saved.name} saved. Choose it under “Send to” on the Imports page, or open its tasks.`);
              void profiles.refetch();
            }}
          />
        ) : (
          <p className="notice notice-info">
            Only an admin key can add or remove profiles. This session uses {session.role === 'editor' ? 'an' : 'a'} {session.role} key.
          </p>
        )}
      </Panel>
      <Panel title="How sending works">
        <ol className="remote-steps">
          <li>
            On <Link to="/imports">Imports</Link>, choose the file: it is checked here, offline (matched columns, rows that will fail).
          </li>
          <li>
            Under “Send to”, choose a profile. This QR Sandbox server passes the upload to the service with the profile’s key; the page
            never holds the secret.
          </li>
          <li>
            The service’s background task is checked every 2 to 5 seconds until it ends; then its excluded rows and error report come from
            the service.
          </li>
        </ol>
        <p className="field-hint">
          The same from the command line: <code>qr-sandbox import FILE --type qrcodes --profile NAME</code> and{' '}
          <code>qr-sandbox tasks watch UUID --profile NAME</code>.
        </p>
      </Panel>
      {removing && (
        <ConfirmDialog
          title={`Remove the profile ${removing.name}?`}
          confirmLabel="Remove profile"
          request={removeProfileRequest(removing.name)}
          onCancel={() => setRemoving(null)}
          onDone={() => {
            setNotice(`Profile ${removing.name} removed; its secret was deleted from this machine.`);
            setRemoving(null);
            void profiles.refetch();
          }}
        >
          <p>
            Its address and key are deleted from this machine. Nothing changes on {removing.base_url}: tasks there go on, and the API key
            stays valid there until it is revoked on that service.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
