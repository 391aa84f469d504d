import { writeCall } from '../../api/write-call.ts';
import { desktopBridge } from '../../desktop/bridge.ts';
import { type ComponentProps, type FormEvent, useState } from 'react';
import { ApiFailure } from '../../api/client.ts';
import { fieldProblem } from '../../api/describe-error.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SubmitButton } from '../../components/FormActions.tsx';
import { TextField } from '../../components/FormField.tsx';
import { type ProfileBody, type PublicProfile, saveProfileRequest, splitCredential } from '../../api/remote-api.ts';

const MASKED = '<api_secret of the remote service>';

type Key = 'name' | 'base_url' | 'key' | 'secret' | 'organization';
const EMPTY: Record<Key, string> = { name: '', base_url: '', key: '', secret: '', organization: '' };

function nameProblem(error: unknown): string | undefined {
  if (!(error instanceof ApiFailure)) return undefined;
  return error.details.find((d) => d.path === 'path.name')?.message;
}

/** Adds (or replaces) a connection profile. The secret goes to the server once and is never shown again. */
export function ProfileForm({
  existing,
  profilesFile,
  onSaved,
}: {
  existing: PublicProfile[];
  profilesFile: string | null;
  onSaved(profile: PublicProfile): void;
}) {
  const [values, setValues] = useState(EMPTY);
  const [missing, setMissing] = useState<Partial<Record<'name' | 'base_url' | 'key' | 'secret', string>>>({});

  const credential = splitCredential(values.key, values.secret);
  const body = (apiSecret: string): ProfileBody => ({
    base_url: values.base_url.trim(),
    api_key: 'api_key' in credential ? credential.api_key : values.key.trim(),
    api_secret: apiSecret,
    ...(values.organization.trim() ? { organization_uuid: values.organization.trim() } : {}),
  });
  const trimmedName = values.name.trim();
  const save = useApiAction(async () => {
    if (!('api_secret' in credential)) return;
    const saved = await writeCall('put', '/api/profiles/{name}', {
      params: { path: { name: trimmedName } },
      body: body(credential.api_secret),
    }).send();
    setValues(EMPTY);
    onSaved(saved);
  });

  const problems: Record<Key, string | undefined> = {
    name: missing.name ?? nameProblem(save.error),
    base_url: missing.base_url ?? fieldProblem(save.error, 'base_url'),
    key: missing.key ?? fieldProblem(save.error, 'api_key'),
    secret: missing.secret ?? fieldProblem(save.error, 'api_secret'),
    organization: fieldProblem(save.error, 'organization_uuid'),
  };
  const replaces = existing.some((p) => p.name === trimmedName);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof missing = {};
    if (trimmedName === '') next.name = 'Give the profile a short name, e.g. prod or staging.';
    if (values.base_url.trim() === '') next.base_url = 'Enter the address of the service, e.g. https://service.example.com.';
    if ('problem' in credential) next[credential.problem] = credential.message;
    setMissing(next);
    if (Object.keys(next).length === 0) void save.run();
  };
  const change = (key: Key) => (value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setMissing({});
    save.clearError();
  };
  const fields: ({ key: Key } & Omit<ComponentProps<typeof TextField>, 'value' | 'onChange'>)[] = [
    {
      key: 'name',
      id: 'profile-name',
      label: 'Name',
      placeholder: 'prod',
      maxLength: 64,
      hint: replaces ? (
        `A profile named ${trimmedName} exists: saving replaces it.`
      ) : (
        <>
          Letters, digits, dot, dash or underscore; the CLI uses it as <code className="nowrap">--profile NAME</code>.
        </>
      ),
    },
    {
      key: 'base_url',
      id: 'profile-url',
      className: 'field profile-field-wide',
      label: 'Base URL',
      type: 'url',
      placeholder: 'https://service.example.com',
      hint: (
        <>
          Paths such as <code>/api/qrcodes/bulk</code> are added to it.
        </>
      ),
    },
    {
      key: 'key',
      id: 'profile-key',
      label: 'API key',
      autoComplete: 'off',
      hint: (
        <>
          Or paste <code>key:secret</code> here and leave the secret empty.
        </>
      ),
    },
    { key: 'secret', id: 'profile-secret', label: 'API secret', type: 'password', autoComplete: 'new-password' },
    {
      key: 'organization',
      id: 'profile-org',
      label: 'organization_uuid (optional)',
      hint: 'The organization on that service to import into. Without it, the Imports page asks each time.',
    },
  ];
  const where = profilesFile ? <code className="break">{profilesFile}</code> : 'profiles.json in the data folder';

  return (
    <form className="subform profile-form" onSubmit={submit} aria-labelledby="profile-form-title" noValidate>
      <h3 id="profile-form-title">Add a connection profile</h3>
      <div className="profile-form-grid">
        {fields.map(({ key, ...field }) => (
          <TextField key={key} spellCheck={false} {...field} value={values[key]} onChange={change(key)} problem={problems[key]} />
        ))}
      </div>
      <div className="notice notice-warning" role="note" aria-label="Where the secret is kept">
        {desktopBridge() ? (
          <div className="notice-body">
            <strong>The desktop app encrypts the secret</strong> with the system keychain (Electron safeStorage) in {where}; without a
            keychain it is stored unencrypted (mode 0600), and the list says which. This page never sees it again: the app adds it to each
            call it passes on to the service.
          </div>
        ) : (
          <div className="notice-body">
            <strong>The secret is stored unencrypted</strong> in {where}, a file only the account running QR Sandbox can read (mode 0600).
            This page never sees it again: the server adds it to each call it passes on to the service.
          </div>
        )}
      </div>
      <div className="form-actions">
        <SubmitButton running={save.running} busyLabel="Saving…">
          {replaces ? 'Replace profile' : 'Save profile'}
        </SubmitButton>
      </div>
      <ErrorNotice
        error={save.error}
        onDismiss={save.clearError}
        fieldsShown={['name', 'base url', 'api key', 'api secret', 'organization uuid']}
      />
      <CurlDisclosure request={saveProfileRequest(trimmedName || 'NAME', body(MASKED))} label="Show curl for saving the profile" />
    </form>
  );
}
