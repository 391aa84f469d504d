import { ApiError, notFound } from '../http/errors.ts';
import { toPage, type Page } from '../http/pagination.ts';
import { emitEvent } from '../webhooks/emit.ts';
import type { OutboxDeps } from '../webhooks/outbox.ts';
import type { QueuedEvent } from '../webhooks/outbox.ts';
import { eventOfStatus, statusOfEvent } from './events.ts';
import { composeConfirmation, resolveUser, type Overrides } from './compose.ts';
import { findQrCode, qrCodeForSimulation, type QrCodeForConfirmation } from './qr-lookup.ts';
import type { ConfirmationListQuery, ConfirmationStatus, CreateConfirmationBody, ServiceConfirmation } from './schemas.ts';
import type { SimulateBody } from './simulate-schemas.ts';
import { ConfirmationWrites, findConfirmation, listConfirmations } from './store.ts';

/**
 * Composes the confirmation, then stores it together with its event and the event's deliveries
 * in one transaction (the outbox), and wakes the dispatcher once committed.
 */
async function record(
  deps: OutboxDeps,
  organizationUuid: string,
  status: ConfirmationStatus,
  qrCode: QrCodeForConfirmation,
  overrides: Overrides,
  random: () => number,
): Promise<QueuedEvent<ServiceConfirmation>> {
  const user = resolveUser(organizationUuid, overrides.user);
  const store = new ConfirmationWrites(deps.db);
  const queued = await emitEvent(deps, organizationUuid, () => {
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
    return { type: eventOfStatus[status], data: confirmation, dataJson: json };
  });
  // A service event is always queued (only a sandbox-only event without a subscriber is not).
  if (!queued) throw new Error(`${eventOfStatus[status]} was not queued`);
  return queued;
}

export async function createConfirmation(deps: OutboxDeps, body: CreateConfirmationBody): Promise<ServiceConfirmation> {
  const { organization_uuid, qr_code_uuid, status, ...overrides } = body;
  const qrCode = await findQrCode(deps.db, organization_uuid, qr_code_uuid);
  if (!qrCode) throw notFound(`QR code ${qr_code_uuid}`);
  checkTag(qrCode, overrides.qr_code_tag_uuid, 'body.qr_code_tag_uuid');
  const queued = await record(deps, organization_uuid, status, qrCode, overrides, Math.random);
  return queued.envelope.data;
}

function checkTag(qrCode: QrCodeForConfirmation, tagUuid: string | undefined, path: string): void {
  if (tagUuid && !qrCode.tags.some((t) => t.uuid === tagUuid)) {
    const message = `Tag ${tagUuid} is not a tag of QR code ${qrCode.uuid}.`;
    throw new ApiError('VALIDATION_ERROR', `Invalid request. ${path}: ${message}`, [{ path, message }]);
  }
}

/** A realistic, fully populated confirmation for the event, at the given QR code or one of the organization's. */
export async function simulateConfirmation(deps: OutboxDeps, body: SimulateBody): Promise<QueuedEvent<ServiceConfirmation>> {
  const db = deps.db;
  let qrCode: QrCodeForConfirmation | undefined;
  if (body.qr_code_uuid) {
    qrCode = await findQrCode(db, body.organization_uuid, body.qr_code_uuid);
    if (!qrCode) throw notFound(`QR code ${body.qr_code_uuid}`);
  } else {
    qrCode = await qrCodeForSimulation(db, body.organization_uuid, Math.random);
  }
  const overrides = body.overrides ?? {};
  checkTag(qrCode, overrides.qr_code_tag_uuid, 'body.overrides.qr_code_tag_uuid');
  return record(deps, body.organization_uuid, statusOfEvent[body.event], qrCode, overrides, Math.random);
}

export async function pageOfConfirmations(deps: OutboxDeps, query: ConfirmationListQuery): Promise<Page<ServiceConfirmation>> {
  return toPage(await listConfirmations(deps.db.kysely, query), query);
}

export async function getConfirmation(deps: OutboxDeps, organizationUuid: string, uuid: string): Promise<ServiceConfirmation> {
  const found = await findConfirmation(deps.db.kysely, organizationUuid, uuid);
  if (!found) throw notFound(`Service confirmation ${uuid}`);
  return found;
}
