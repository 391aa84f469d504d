import './remote.css';
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { Link } from '../../router.tsx';
import { type Destination, type PublicProfile, THIS_SANDBOX } from '../../api/remote-api.ts';
import { profilesQuery } from '../../api/profiles-query.ts';

/** "Send to": this sandbox (the default) or one of the connection profiles. */
export function DestinationField({
  value,
  onChange,
  sandboxOrganization,
}: {
  value: Destination;
  onChange(next: Destination): void;
  sandboxOrganization: string;
}) {
  const profiles = useQuery(profilesQuery);
  const items = profiles.data?.items ?? [];
  const chosen = value.profile;
  // A profile removed meanwhile: back to this sandbox rather than sending to nowhere.
  useEffect(() => {
    if (chosen && profiles.data && !profiles.data.items.some((p) => p.name === chosen.name)) onChange(THIS_SANDBOX);
  }, [chosen, profiles.data, onChange]);
  const choose = (profile: PublicProfile | null) =>
    onChange(profile ? { profile, organizationUuid: profile.organization_uuid ?? '' } : THIS_SANDBOX);

  return (
    <fieldset className="fieldset">
      <legend className="field-label">Send to</legend>
      <div className="radio-stack">
        <label className="checkbox">
          <input type="radio" name="import-destination" value="" checked={chosen === null} onChange={() => choose(null)} />
          <span>
            <strong>This sandbox</strong> <span className="field-hint">— {sandboxOrganization}, on this machine.</span>
          </span>
        </label>
        {items.map((p) => (
          <label key={p.name} className="checkbox">
            <input type="radio" name="import-destination" value={p.name} checked={chosen?.name === p.name} onChange={() => choose(p)} />
            <span>
              <strong>{p.name}</strong> <span className="field-hint">— {p.base_url}</span>
            </span>
          </label>
        ))}
      </div>
      <ErrorNotice error={profiles.error} onRetry={() => void profiles.refetch()} />
      {profiles.data && items.length === 0 && (
        <p className="field-hint">
          To send to a real deployment of the service instead, add a connection profile under <Link to="/remote">Remote services</Link>.
        </p>
      )}
      {chosen && (
        <div className="destination-remote">
          {chosen.organization_uuid ? (
            <p className="field-hint">
              Sent with <code>organization_uuid={chosen.organization_uuid}</code>, the organization saved in the profile.
            </p>
          ) : (
            <div className="field">
              <label className="field-label" htmlFor="destination-org">
                organization_uuid on {chosen.name}
              </label>
              <input
                id="destination-org"
                value={value.organizationUuid}
                onChange={(e) => onChange({ ...value, organizationUuid: e.target.value.trim() })}
                placeholder="The organization to import into on that service"
                spellCheck={false}
                aria-describedby="destination-org-hint"
              />
              <span id="destination-org-hint" className="field-hint">
                The profile names no organization. Save one in the profile under <Link to="/remote">Remote services</Link> to skip this.
              </span>
            </div>
          )}
          <p className="field-hint">
            The file is checked here first (“2. Check before sending”), then this QR Sandbox server passes it to {chosen.base_url} with the
            profile’s API key <code>{chosen.api_key}</code>; the secret stays on the server. The task is followed there.
          </p>
        </div>
      )}
    </fieldset>
  );
}
