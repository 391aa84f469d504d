import { type FormEvent, useState } from 'react';
import { ApiFailure, call } from '../../api/client.ts';
import { fieldProblem } from '../../api/describe-error.ts';
import { useApiAction } from '../../api/use-api.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { type ProfileBody, type PublicProfile, saveProfileRequest, splitCredential } from './remote-api.ts';

const MASKED = '<api_secret of the remote service>';

function nameProblem(error: unknown): string | undefined {
  if (!(error instanceof ApiFailure)) return undefined;
  return error.details.find((d) => d.path === 'path.name')?.message;
}

/** Adds (or replaces) a connection profile. The secret goes to the server once and is never shown again. */
export function ProfileForm({ existing, profilesFile, onSaved }: { existing: PublicProfile[]; profilesFile: string | null; onSaved(profile: PublicProfile): void }) {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [keyText, setKeyText] = useState('');
  const [secret, setSecret] = useState('');
  const [organization, setOrganization] = useState('');
  const [missing, setMissing] = useState<Partial<Record<'name' | 'base_url' | 'key' | 'secret', string>>>({});

  const credential = splitCredential(keyText, secret);
  const body = (apiSecret: string): ProfileBody => ({
    base_url: baseUrl.trim(),
    api_key: 'api_key' in credential ? credential.api_key : keyText.trim(),
    api_secret: apiSecret,
    ...(organization.trim() ? { organization_uuid: organization.trim() } : {}),
  });
  const trimmedName = name.trim();
  const save = useApiAction(async () => {
    if (!('api_secret' in credential)) return;
    const saved = await call<PublicProfile>(saveProfileRequest(trimmedName, body(credential.api_secret)));
    setName('');
    setBaseUrl('');
    setKeyText('');
    setSecret('');
    setOrganization('');
    onSaved(saved);
  });

  const problems = {
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
    if (baseUrl.trim() === '') next.base_url = 'Enter the address of the service, e.g. https://service.example.com.';
    if ('problem' in credential) next[credential.problem] = credential.message;
    setMissing(next);
    if (Object.keys(next).length === 0) void save.run();
  };
  const edited = () => {
    setMissing({});
    save.clearError();
  };
  const describedBy = (id: string, problem: string | undefined, hint = true) => [problem ? `${id}-problem` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;

  return (
    <form className="subform profile-form" onSubmit={submit} aria-labelledby="profile-form-title" noValidate>
      <h3 id="profile-form-title">Add a connection profile</h3>
      <div className="profile-form-grid">
        <label className="field">
          <span className="field-label">Name</span>
          <input
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              edited();
            }}
            placeholder="prod"
            maxLength={64}
            spellCheck={false}
            aria-invalid={problems.name ? true : undefined}
            aria-describedby={describedBy('profile-name', problems.name)}
          />
          {problems.name && (
            <span id="profile-name-problem" className="field-problem">
              {problems.name}
            </span>
          )}
          <span id="profile-name-hint" className="field-hint">
            {replaces ? `A profile named ${trimmedName} exists: saving replaces it.` : 'Letters, digits, dot, dash or underscore; the CLI uses it as --profile NAME.'}
          </span>
        </label>
        <label className="field">
          <span className="field-label">Base URL</span>
          <input
            type="url"
            value={baseUrl}
            onChange={(e) => {
              setBaseUrl(e.target.value);
              edited();
            }}
            placeholder="https://service.example.com"
            spellCheck={false}
            aria-invalid={problems.base_url ? true : undefined}
            aria-describedby={describedBy('profile-url', problems.base_url)}
          />
          {problems.base_url && (
            <span id="profile-url-problem" className="field-problem">
              {problems.base_url}
            </span>
          )}
          <span id="profile-url-hint" className="field-hint">
            Paths such as <code>/api/qrcodes/bulk</code> are added to it.
          </span>
        </label>
        <label className="field">
          <span className="field-label">API key</span>
          <input
            value={keyText}
            onChange={(e) => {
              setKeyText(e.target.value);
              edited();
            }}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={problems.key ? true : undefined}
            aria-describedby={describedBy('profile-key', problems.key)}
          />
          {problems.key && (
            <span id="profile-key-problem" className="field-problem">
              {problems.key}
            </span>
          )}
          <span id="profile-key-hint" className="field-hint">
            Or paste <code>key:secret</code> here and leave the secret empty.
          </span>
        </label>
        <label className="field">
          <span className="field-label">API secret</span>
          <input
            type="password"
            value={secret}
            onChange={(e) => {
              setSecret(e.target.value);
              edited();
            }}
            autoComplete="new-password"
            spellCheck={false}
            aria-invalid={problems.secret ? true : undefined}
            aria-describedby={describedBy('profile-secret', problems.secret, false)}
          />
          {problems.secret && (
            <span id="profile-secret-problem" className="field-problem">
              {problems.secret}
            </span>
          )}
        </label>
        <label className="field">
          <span className="field-label">organization_uuid (optional)</span>
          <input
            value={organization}
            onChange={(e) => {
              setOrganization(e.target.value);
              edited();
            }}
            spellCheck={false}
            aria-invalid={problems.organization ? true : undefined}
            aria-describedby={describedBy('profile-org', problems.organization)}
          />
          {problems.organization && (
            <span id="profile-org-problem" className="field-problem">
              {problems.organization}
            </span>
          )}
          <span id="profile-org-hint" className="field-hint">
            The organization on that service to import into. Without it, the Imports page asks each time.
          </span>
        </label>
      </div>
      <div className="notice notice-warning" role="note" aria-label="Where the secret is kept">
        <div className="notice-body">
          <strong>The secret is stored unencrypted</strong> in {profilesFile ? <code className="break">{profilesFile}</code> : 'profiles.json in the data folder'}, a file
          only the account running QR Sandbox can read (mode 0600). This page never sees it again: the server adds it to each call it passes on to the service.
        </div>
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={save.running}>
          {save.running ? 'Saving…' : replaces ? 'Replace profile' : 'Save profile'}
        </button>
      </div>
      <ErrorNotice error={save.error} onDismiss={save.clearError} fieldsShown={['name', 'base url', 'api key', 'api secret', 'organization uuid']} />
      <CurlDisclosure request={saveProfileRequest(trimmedName || 'NAME', body(MASKED))} label="Show curl for saving the profile" />
    </form>
  );
}
