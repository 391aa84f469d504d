import { useId } from 'react';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { Panel } from '../Panel.tsx';
import { type MapMark, QrCodeMap } from './QrCodeMap.tsx';
import { useQrCodePoints } from './use-qrcode-points.ts';

/** Opens a QR code on the QR codes page (its form), from any page's map. */
export const qrCodePath = (uuid: string) => `/qrcodes?open=${encodeURIComponent(uuid)}`;

/**
 * The "Map" panel: where the organization's QR codes are (those an import wrote when `window` is
 * given). `within` makes it a section of a panel (its heading an h3) instead of a panel of its own.
 */
export function QrCodesMapPanel({
  organizationUuid,
  window,
  label,
  onOpen,
  note,
  aside,
  marks,
  within = false,
}: {
  organizationUuid: string;
  window?: { from: string; to: string };
  label: string;
  onOpen(uuid: string): void;
  note?: React.ReactNode;
  aside?: React.ReactNode;
  marks?: readonly MapMark[];
  within?: boolean;
}) {
  const { query, points } = useQrCodePoints(organizationUuid, window);
  const headingId = useId();
  const content = (
    <>
      {note}
      <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      {points ? (
        <QrCodeMap points={points} label={label} onOpen={onOpen} {...(marks ? { marks } : {})} />
      ) : (
        !query.error && <p className="muted">Loading the map…</p>
      )}
      {aside}
    </>
  );
  return within ? (
    <section className="qr-map-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Map</h3>
      {content}
    </section>
  ) : (
    <Panel title="Map">{content}</Panel>
  );
}
