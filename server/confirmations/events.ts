/** The service's events: a worker's check-in, check-out or delivery at a QR code (docs/webhooks.md). */
import { defineWebhookEvent } from '../webhook-events/definition.ts';
import { type ConfirmationStatus, type ServiceConfirmation, serviceConfirmationSchema } from './schemas.ts';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function summary(data: ServiceConfirmation) {
  const user: Partial<ServiceConfirmation['user']> = data.user ?? {};
  const worker = [text(user.firstname), text(user.lastname)].filter(Boolean).join(' ');
  return { qr_code_uuid: text(data.qr_code_uuid), service: text(data.service), location: text(data.location), worker: worker || null };
}

const confirmationEvent = <const Type extends string>(type: Type, shortName: string) =>
  ({ type, shortName, data: serviceConfirmationSchema, sandboxOnly: false, summary }) as const;

export const checkInEvent = defineWebhookEvent({
  ...confirmationEvent('service_confirmation.check_in', 'check_in'),
  label: 'Check-in',
  description: 'A worker checked in at a QR code.',
  envelopeSchemaId: 'CheckInEvent',
  simulate: { demo: true },
});

export const checkOutEvent = defineWebhookEvent({
  ...confirmationEvent('service_confirmation.check_out', 'check_out'),
  label: 'Check-out',
  description: 'A worker checked out, with the distance from the previous confirmation.',
  envelopeSchemaId: 'CheckOutEvent',
  simulate: { demo: true, sameQrCodeAs: checkInEvent.type },
});

export const deliveryEvent = defineWebhookEvent({
  ...confirmationEvent('service_confirmation.delivery', 'delivery'),
  label: 'Delivery',
  description: 'A delivery was confirmed at a QR code.',
  envelopeSchemaId: 'DeliveryEvent',
  simulate: { demo: true },
});

/** The events POST /api/service-confirmations/simulate makes, and the confirmation status of each. */
export const confirmationEvents = [checkInEvent, checkOutEvent, deliveryEvent] as const;
export type ConfirmationEventType = (typeof confirmationEvents)[number]['type'];
export const confirmationEventTypes = confirmationEvents.map((event) => event.type) as [ConfirmationEventType, ...ConfirmationEventType[]];

export const eventOfStatus: Record<ConfirmationStatus, ConfirmationEventType> = {
  CHECK_IN: checkInEvent.type,
  CHECK_OUT: checkOutEvent.type,
  DELIVERY: deliveryEvent.type,
};

export const statusOfEvent = Object.fromEntries(Object.entries(eventOfStatus).map(([status, type]) => [type, status])) as Record<
  ConfirmationEventType,
  ConfirmationStatus
>;
