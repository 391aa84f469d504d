import { useSignedIn } from '../../auth/session-store.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ApiKeysSection } from './ApiKeysSection.tsx';
import { GeocoderSection } from './GeocoderSection.tsx';
import { DemoDataSection } from './DemoDataSection.tsx';
import { ServerSettingsSections } from './ServerSettingsSection.tsx';
import { Panel } from '../../components/Panel.tsx';

export function SettingsPage() {
  const { session } = useSignedIn();
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your organization, its API keys, how webhooks are delivered, and where this QR Sandbox keeps its data."
      />
      <Panel title="Organization">
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
      </Panel>
      {session.role === 'admin' ? (
        <ApiKeysSection />
      ) : (
        <Panel title="API keys">
          <p className="muted">Only an admin key can see and create API keys. This session uses a {session.role} key.</p>
        </Panel>
      )}
      <ServerSettingsSections />
      <GeocoderSection />
      <DemoDataSection />
    </>
  );
}
