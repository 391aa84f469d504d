import { useSignedIn } from '../../auth/session-store.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ApiKeysSection } from './ApiKeysSection.tsx';
import { GeocoderSection } from './GeocoderSection.tsx';
import { DemoDataSection } from './DemoDataSection.tsx';
import { SnapshotsSection } from './SnapshotsSection.tsx';
import { ServerSettingsSections } from './ServerSettingsSection.tsx';
import { Panel } from '../../components/Panel.tsx';
import { Facts } from '../../components/Facts.tsx';

export function SettingsPage() {
  const { session } = useSignedIn();
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your organization, its API keys, how webhooks are delivered, and where this QR Sandbox keeps its data."
      />
      <Panel title="Organization">
        <Facts
          facts={{
            Name: session.organization_name,
            organization_uuid: <code>{session.organization_uuid}</code>,
            'Signed in with': (
              <>
                {session.name}, {session.role} role
                <br />
                <code>{session.api_key}</code>
              </>
            ),
          }}
        />
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
      <SnapshotsSection />
      <DemoDataSection />
    </>
  );
}
