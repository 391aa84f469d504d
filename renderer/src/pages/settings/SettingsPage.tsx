import { useSignedIn } from '../../auth/session-store.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ApiKeysSection } from './ApiKeysSection.tsx';
import { GeocoderSection } from './GeocoderSection.tsx';
import { DemoDataSection } from './DemoDataSection.tsx';
import { ServerSettingsSections } from './ServerSettingsSection.tsx';

export function SettingsPage() {
  const { session } = useSignedIn();
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your organization, its API keys, how webhooks are delivered, and where this QR Sandbox keeps its data."
      />
      <section className="panel" aria-labelledby="org-title">
        <h2 id="org-title">Organization</h2>
        <dl className="facts">
          <div className="fact">
            <dt>Name</dt>
            <dd>{session.organization_name}</dd>
          </div>
          <div className="fact">
            <dt>organization_uuid</dt>
            <dd>
              <code>{session.organization_uuid}</code>
            </dd>
          </div>
          <div className="fact">
            <dt>Signed in with</dt>
            <dd>
              {session.name}, {session.role} role
              <br />
              <code>{session.api_key}</code>
            </dd>
          </div>
        </dl>
      </section>
      {session.role === 'admin' ? (
        <ApiKeysSection />
      ) : (
        <section className="panel" aria-labelledby="keys-title">
          <h2 id="keys-title">API keys</h2>
          <p className="muted">Only an admin key can see and create API keys. This session uses a {session.role} key.</p>
        </section>
      )}
      <ServerSettingsSections />
      <GeocoderSection />
      <DemoDataSection />
    </>
  );
}
