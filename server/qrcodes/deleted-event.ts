/** The sandbox's own event: a QR code was deleted through the API (opt-in, docs/webhooks.md#qrcodedeleted). */
import { defineWebhookEvent } from '../webhook-events/definition.ts';
import { type QrCode, qrCodeSchema } from './schemas.ts';

export const qrCodeDeletedEvent = defineWebhookEvent({
  type: 'qrcode.deleted',
  shortName: 'qrcode_deleted',
  label: 'QR code deleted',
  description: "A QR code was deleted through the API. The sandbox's own event: only a webhook that lists it gets it.",
  data: qrCodeSchema,
  envelopeSchemaId: 'QrCodeDeletedEvent',
  sandboxOnly: true,
  summary: (qrCode: QrCode) => ({ qr_code_uuid: qrCode.uuid ?? null, service: null, location: qrCode.location || null, worker: null }),
  howToCause: 'Delete a QR code (DELETE /api/qrcodes/uuid/{uuid}) of an organization with a webhook subscribed to qrcode.deleted.',
});
