import { NotInThisBuild } from '../placeholders/NotInThisBuild.tsx';

export function WebhooksPage() {
  return (
    <NotInThisBuild
      title="Webhooks"
      description="Register webhook URLs, see every delivery attempt, redeliver, and trigger check-in, check-out and delivery events."
      what="Webhook management"
      api={['POST /api/webhooks/register', 'GET /api/webhooks']}
      next="When the server offers it, this page lists your webhooks and their delivery logs."
    />
  );
}
