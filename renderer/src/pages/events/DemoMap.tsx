import { QrCodesMapPanel, qrCodePath } from '../../components/map/QrCodesMapPanel.tsx';
import type { MapMark } from '../../components/map/QrCodeMap.tsx';
import { navigate } from '../../router.tsx';
import { eventSentence } from './event-text.ts';

/** How long an event's QR code stays ringed on the map. */
const RINGED_MS = 60_000;

/**
 * The demo's map: the organization's sites, each event of the last minute ringed where it happened,
 * so an audience sees check-ins, check-outs and deliveries appear as they come.
 */
export function DemoMap({
  organizationUuid,
  events,
  now,
}: {
  organizationUuid: string;
  events: readonly { qr_code_uuid: string | null; created_at: string; type: string; service: string | null; location: string | null }[];
  now: number;
}) {
  const marks: MapMark[] = events.flatMap((event) =>
    event.qr_code_uuid && now - Date.parse(event.created_at) < RINGED_MS ? [{ uuid: event.qr_code_uuid, label: eventSentence(event) }] : [],
  );
  return (
    <QrCodesMapPanel
      organizationUuid={organizationUuid}
      label="Where the demo's events happen"
      marks={marks}
      onOpen={(uuid) => navigate(qrCodePath(uuid))}
      note={<p className="muted">Each event of the last minute is ringed where it happened.</p>}
    />
  );
}
