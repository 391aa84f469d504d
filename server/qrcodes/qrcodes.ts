import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Counter } from '../db/count-cache.ts';
import { uuid7 } from '../db/uuid7.ts';
import type { Database } from '../db/schema.ts';
import { ADDRESS_NOT_LOCATED, type Geocoder } from '../geocoding/geocoder.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { toPage, type Page } from '../http/pagination.ts';
import { nowIso } from '../time.ts';
import { emitEvent } from '../webhooks/emit.ts';
import type { OutboxDeps } from '../webhooks/outbox.ts';
import { qrCodeDeletedEvent } from './deleted-event.ts';
import { normalisePostcode, storedAddress, type AddressParts, type StoredAddress } from './address.ts';
import type { CreateQrCode, QrCode, QrCodeListQuery, UpdateQrCode } from './schemas.ts';
import {
  deleteTagsOf,
  findByExternalReference,
  findLiveQrCode,
  findTag,
  insertQrCode,
  insertTag,
  listQrCodeRows,
  softDeleteQrCode,
  tagsOf,
  updateQrCodeRow,
  type QrCodeRow,
  type QrCodeTagRow,
} from './store.ts';

export const DEFAULT_QR_CODE_TYPE = 'SITE';

export function toQrCode(row: QrCodeRow, tags: QrCodeTagRow[]): QrCode {
  return {
    uuid: row.uuid,
    organization_uuid: row.organization_uuid,
    type: row.type,
    name: row.name,
    label: row.label,
    location: row.location,
    address_line_1: row.address_line_1,
    suburb: row.suburb,
    state: row.state,
    postcode: row.postcode,
    country: row.country,
    latitude: row.latitude,
    longitude: row.longitude,
    precision: row.precision,
    timezone_name: row.timezone_name,
    data: row.data,
    qr_code_name: row.qr_code_name,
    external_reference_id: row.external_reference_id,
    tags: tags.map((t) => ({ uuid: t.uuid, tag_name: t.tag_name, tag_number: t.tag_number, tag_display_name: t.tag_display_name })),
    created_on: row.created_on,
    updated_on: row.updated_on,
  };
}

function locate(geocoder: Geocoder, input: AddressParts): StoredAddress {
  const postcode = normalisePostcode(input.postcode, input.country);
  const located = geocoder.locate({ ...input, postcode });
  if (!located) throw new ApiError('VALIDATION_ERROR', ADDRESS_NOT_LOCATED, [{ path: 'body.location', message: ADDRESS_NOT_LOCATED }]);
  return storedAddress({ ...input, postcode }, located);
}

async function withTags(db: Kysely<Database>, row: QrCodeRow): Promise<QrCode> {
  return toQrCode(row, await tagsOf(db, [row.uuid]));
}

async function checkTagsFree(
  db: Kysely<Database>,
  organizationUuid: string,
  tags: NonNullable<CreateQrCode['tags']>,
  ownUuid: string | null,
) {
  for (const tag of tags) {
    const existing = await findTag(db, organizationUuid, tag.tag_name, tag.tag_number);
    if (existing && existing.qr_code_uuid !== ownUuid) {
      throw new ApiError('CONFLICT', `Tag ${tag.tag_name} ${tag.tag_number} already belongs to QR code ${existing.qr_code_uuid}.`);
    }
  }
}

async function writeTags(db: Kysely<Database>, organizationUuid: string, qrCodeUuid: string, tags: NonNullable<CreateQrCode['tags']>) {
  await deleteTagsOf(db, qrCodeUuid);
  const now = nowIso();
  for (const tag of tags) {
    await insertTag(db, {
      uuid: randomUUID(),
      organization_uuid: organizationUuid,
      qr_code_uuid: qrCodeUuid,
      tag_name: tag.tag_name,
      tag_number: tag.tag_number,
      tag_display_name: tag.tag_display_name ?? `${tag.tag_name} ${tag.tag_number}`,
      created_on: now,
    });
  }
}

/**
 * Creates a QR code, located by the geocoder. An external reference already used by a live
 * QR code is a 409; one used by a soft-deleted QR code restores that record with the new values.
 */
export async function createQrCode(db: Kysely<Database>, geocoder: Geocoder, input: CreateQrCode): Promise<QrCode> {
  const address = locate(geocoder, input);
  return db.transaction().execute(async (trx) => {
    const existing = input.external_reference_id
      ? await findByExternalReference(trx, input.organization_uuid, input.external_reference_id)
      : undefined;
    if (existing && existing.deleted_on === null) {
      throw new ApiError(
        'CONFLICT',
        `A QR code with external_reference_id ${input.external_reference_id} already exists (${existing.uuid}).`,
      );
    }
    const uuid = existing?.uuid ?? uuid7();
    if (input.tags) await checkTagsFree(trx, input.organization_uuid, input.tags, existing?.uuid ?? null);
    const now = nowIso();
    const values = {
      organization_uuid: input.organization_uuid,
      type: input.type ?? DEFAULT_QR_CODE_TYPE,
      name: input.name ?? input.location,
      label: input.label ?? null,
      location: input.location,
      ...address,
      data: input.data ?? null,
      qr_code_name: input.qr_code_name ?? null,
      external_reference_id: input.external_reference_id ?? null,
      updated_on: now,
      deleted_on: null,
    };
    if (existing) await updateQrCodeRow(trx, uuid, values);
    else await insertQrCode(trx, { uuid, ...values, created_on: now });
    if (input.tags) await writeTags(trx, input.organization_uuid, uuid, input.tags);
    const row = await findLiveQrCode(trx, input.organization_uuid, uuid);
    if (!row) throw new Error('QR code vanished after insert');
    return withTags(trx, row);
  });
}

export async function getQrCode(db: Kysely<Database>, organizationUuid: string, uuid: string): Promise<QrCode> {
  const row = await findLiveQrCode(db, organizationUuid, uuid);
  if (!row) throw notFound(`QR code ${uuid}`);
  return withTags(db, row);
}

const ADDRESS_KEYS = ['location', 'address_line_1', 'suburb', 'state', 'postcode', 'country'] as const;

export async function updateQrCode(
  db: Kysely<Database>,
  geocoder: Geocoder,
  organizationUuid: string,
  uuid: string,
  patch: UpdateQrCode,
): Promise<QrCode> {
  return db.transaction().execute(async (trx) => {
    const row = await findLiveQrCode(trx, organizationUuid, uuid);
    if (!row) throw notFound(`QR code ${uuid}`);
    if (patch.external_reference_id && patch.external_reference_id !== row.external_reference_id) {
      const other = await findByExternalReference(trx, organizationUuid, patch.external_reference_id);
      if (other)
        throw new ApiError(
          'CONFLICT',
          `A QR code with external_reference_id ${patch.external_reference_id} already exists (${other.uuid}).`,
        );
    }
    const { tags, ...fields } = patch;
    let address: Partial<StoredAddress> = {};
    if (ADDRESS_KEYS.some((key) => patch[key] !== undefined)) {
      const merged = Object.fromEntries(
        ADDRESS_KEYS.map((key) => [key, patch[key] !== undefined ? patch[key] : row[key]]),
      ) as unknown as AddressParts;
      const locationOnly = patch.location !== undefined && ADDRESS_KEYS.every((key) => key === 'location' || patch[key] === undefined);
      address = locate(geocoder, locationOnly ? { location: merged.location, address_line_1: merged.address_line_1 } : merged);
    }
    if (tags) await checkTagsFree(trx, organizationUuid, tags, uuid);
    await updateQrCodeRow(trx, uuid, { ...fields, ...address, updated_on: nowIso() });
    if (tags) await writeTags(trx, organizationUuid, uuid, tags);
    const updated = await findLiveQrCode(trx, organizationUuid, uuid);
    if (!updated) throw notFound(`QR code ${uuid}`);
    return withTags(trx, updated);
  });
}

/** Soft-deletes the QR code and, in the same transaction, sends qrcode.deleted with it as it was (to webhooks that opted in). */
export async function deleteQrCode(deps: OutboxDeps, organizationUuid: string, uuid: string): Promise<void> {
  const qrCode = await getQrCode(deps.db.kysely, organizationUuid, uuid);
  await emitEvent(deps, organizationUuid, () => {
    if (!softDeleteQrCode(deps.db, organizationUuid, uuid)) throw notFound(`QR code ${uuid}`);
    return { type: qrCodeDeletedEvent.type, data: qrCode };
  });
}

export async function listQrCodes(db: Kysely<Database>, query: QrCodeListQuery, elsewhere?: Counter): Promise<Page<QrCode>> {
  const { rows, total } = await listQrCodeRows(db, query, elsewhere);
  const tags = await tagsOf(
    db,
    rows.map((r) => r.uuid),
  );
  const byQrCode = new Map<string, QrCodeTagRow[]>();
  for (const tag of tags) byQrCode.set(tag.qr_code_uuid, [...(byQrCode.get(tag.qr_code_uuid) ?? []), tag]);
  return toPage({ items: rows.map((row) => toQrCode(row, byQrCode.get(row.uuid) ?? [])), total }, query);
}
