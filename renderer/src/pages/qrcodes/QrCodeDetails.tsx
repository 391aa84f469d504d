import type { QrCode } from './qrcode-types.ts';
import { Facts } from '../../components/Facts.tsx';
import { Panel } from '../../components/Panel.tsx';

const orNone = (value: string | number | null) => (value === null || value === '' ? '—' : String(value));

/** One QR code, read only: what a viewer key sees when a point of the map opens it (viewers cannot edit). */
export function QrCodeDetails({ qr, onClose }: { qr: QrCode; onClose(): void }) {
  return (
    <Panel
      title={qr.name}
      actions={
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      }
    >
      <Facts
        wide={['Address']}
        facts={{
          Address: qr.location,
          Located: [qr.suburb, qr.state, qr.postcode].filter(Boolean).join(' ') || '—',
          'Located by': qr.precision ? qr.precision.replace(/_/g, ' ') : 'not located',
          Coordinates: qr.latitude === null || qr.longitude === null ? '—' : `${qr.latitude}, ${qr.longitude}`,
          'Time zone': orNone(qr.timezone_name),
          Type: qr.type,
          'External reference': orNone(qr.external_reference_id),
          Uuid: qr.uuid,
        }}
      />
    </Panel>
  );
}
