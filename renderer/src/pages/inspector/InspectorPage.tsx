import { NotInThisBuild } from '../placeholders/NotInThisBuild.tsx';

export function InspectorPage() {
  return (
    <NotInThisBuild
      title="Inspector"
      description="Local inboxes that receive webhook deliveries: every message with its headers, raw body, decrypted JSON and signature verdict."
      what="The webhook inspector"
      api={['POST /api/inboxes', 'GET /api/inboxes']}
      next="When the server offers it, create an inbox here and point a webhook at its address."
    />
  );
}
