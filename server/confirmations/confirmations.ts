import type { AppContext } from '../context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { toPage, type Page } from '../http/pagination.ts';
import type { EventType } from '../webhooks/events.ts';
import { announceEvent, queueEvent, type QueuedEvent } from '../webhooks/outbox.ts';
import { composeConfirmation, resolveUser, type Overrides } from './compose.ts';
import { writeNow } from '../db/write-now.ts';
import { findQrCode, qrCodeForSimulation, type QrCodeForConfirmation } from './qr-lookup.ts';
import type { ConfirmationListQuery, ConfirmationStatus, CreateConfirmationBody, ServiceConfirmation } from './schemas.ts';
import type { SimulateBody } from './simulate-schemas.ts';
import { ConfirmationWrites, findConfirmation, listConfirmations } from './store.ts';

export const eventOfStatus: Record<ConfirmationStatus, EventType> = {
  CHECK_IN: 'service_confirmation.check_in',
  CHECK_OUT: 'service_confirmation.check_out',
  DELIVERY: 'service_confirmation.delivery',
};

export const statusOfEvent: Record<EventType, ConfirmationStatus> = {
  'service_confirmation.check_in': 'CHECK_IN',
  'service_confirmation.check_out': 'CHECK_OUT',
  'service_confirmation.delivery': 'DELIVERY',
};

/**
 * Composes the confirmation, then stores it together with its event and the event's deliveries
 * in one transaction (the outbox), and wakes the dispatcher once committed.
 */
async function record(
  ctx: AppContext,
  organizationUuid: string,
  status: ConfirmationStatus,
  qrCode: QrCodeForConfirmation,
  overrides: Overrides,
  random: () => number,
): Promise<QueuedEvent<ServiceConfirmation>> {
  const user = resolveUser(organizationUuid, overrides.user);
  const store = new ConfirmationWrites(ctx.db);
  const queued = await writeNow(ctx.db, () => {
    const previous = store.latestOfUser(organizationUuid, user.uuid);
    const checkIn = status === 'CHECK_OUT' ? store.openCheckIn(organizationUuid, user.uuid, qrCode.uuid) : undefined;
    const catalog = store.catalog(organizationUuid);
    const confirmation = composeConfirmation({
      organizationUuid,
      status,
      qrCode,
      user,
      overrides,
      previous,
      openCheckIn: checkIn,
      now: new Date(),
      random,
      catalog,
    });
    const json = JSON.stringify(confirmation);
    store.insert(confirmation, json);
    return queueEvent(ctx.db, organizationUuid, eventOfStatus[status], confirmation, json);
  });
  announceEvent(ctx, organizationUuid, queued);
  return queued;
}

export async function createConfirmation(ctx: AppContext, body: CreateConfirmationBody): Promise<ServiceConfirmation> {
  const { organization_uuid, qr_code_uuid, status, ...overrides } = body;
  const qrCode = await findQrCode(ctx.db, organization_uuid, qr_code_uuid);
  if (!qrCode) throw notFound(`QR code ${qr_code_uuid}`);
  checkTag(qrCode, overrides.qr_code_tag_uuid, 'body.qr_code_tag_uuid');
  const queued = await record(ctx, organization_uuid, status, qrCode, overrides, Math.random);
  return queued.envelope.data;
}

function checkTag(qrCode: QrCodeForConfirmation, tagUuid: string | undefined, path: string): void {
  if (tagUuid && !qrCode.tags.some((t) => t.uuid === tagUuid)) {
    const message = `Tag ${tagUuid} is not a tag of QR code ${qrCode.uuid}.`;
    throw new ApiError('VALIDATION_ERROR', `Invalid request. ${path}: ${message}`, [{ path, message }]);
  }
}

/** A realistic, fully populated confirmation for the event, at the given QR code or one of the organization's. */
export async function simulateConfirmation(ctx: AppContext, body: SimulateBody): Promise<QueuedEvent<ServiceConfirmation>> {
  const db = ctx.db;
  let qrCode: QrCodeForConfirmation | undefined;
  if (body.qr_code_uuid) {
    qrCode = await findQrCode(db, body.organization_uuid, body.qr_code_uuid);
    if (!qrCode) throw notFound(`QR code ${body.qr_code_uuid}`);
  } else {
    qrCode = await qrCodeForSimulation(db, body.organization_uuid, Math.random);
  }
  const overrides = body.overrides ?? {};
  checkTag(qrCode, overrides.qr_code_tag_uuid, 'body.overrides.qr_code_tag_uuid');
  return record(ctx, body.organization_uuid, statusOfEvent[body.event], qrCode, overrides, Math.random);
}

export async function pageOfConfirmations(ctx: AppContext, query: ConfirmationListQuery): Promise<Page<ServiceConfirmation>> {
  return toPage(await listConfirmations(ctx.db.kysely, query), query);
}

export async function getConfirmation(ctx: AppContext, organizationUuid: string, uuid: string): Promise<ServiceConfirmation> {
  const found = await findConfirmation(ctx.db.kysely, organizationUuid, uuid);
  if (!found) throw notFound(`Service confirmation ${uuid}`);
  return found;
}
