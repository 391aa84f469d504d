import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type AppointmentField, isAppointmentField } from '../appointments/fields.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { toPage, type Page } from '../http/pagination.ts';
import { nowIso } from '../time.ts';
import { importKinds, isImportKindId } from '../imports/kinds.ts';
import {
  DEFAULT_HANDLER_KIND,
  DEFAULT_HANDLER_SLUG,
  mappingColumnProblems,
  type CreateImportHandlerBody,
  type ImportHandler,
  type ImportHandlerListQuery,
  type UpdateImportHandlerBody,
} from './schemas.ts';
import {
  deleteHandler,
  findHandler,
  findHandlerBySlug,
  handlerSlugs,
  insertHandler,
  listHandlers,
  toImportHandler,
  updateHandler,
} from './store.ts';

/** What an import needs from a handler: plain data, so it can travel to an import worker process. */
export interface ResolvedImportHandler {
  slug: string;
  /** Column title -> spec field; empty for `default` (the spec's names). */
  mapping: Record<string, AppointmentField>;
}

/** A saved appointment mapping's entries that name appointment fields (all of them, as saved). */
function appointmentMapping(mapping: Record<string, string>): Record<string, AppointmentField> {
  const fields: Record<string, AppointmentField> = {};
  for (const [title, field] of Object.entries(mapping)) if (isAppointmentField(field)) fields[title] = field;
  return fields;
}

/**
 * The handler an `org_identifier` selects: missing or `default` is the spec's column names; a
 * saved slug its mapping; anything else a 400 that lists the slugs there are.
 */
export async function resolveImportHandler(
  db: Kysely<Database>,
  organizationUuid: string,
  slug: string | undefined,
): Promise<ResolvedImportHandler> {
  const wanted = slug?.trim().toLowerCase() ?? '';
  if (wanted === '' || wanted === DEFAULT_HANDLER_SLUG) return { slug: DEFAULT_HANDLER_SLUG, mapping: {} };
  const row = await findHandlerBySlug(db, organizationUuid, wanted);
  if (row && isImportKindId(row.kind) && importKinds[row.kind].usesHandlers)
    return { slug: row.slug, mapping: appointmentMapping(toImportHandler(row).mapping) };
  const known = [DEFAULT_HANDLER_SLUG, ...(await handlerSlugs(db, organizationUuid))].join(', ');
  const message = `Unknown org_identifier "${slug ?? ''}". This organization's import handlers are: ${known}. Create one with POST /api/import-handlers.`;
  throw new ApiError('VALIDATION_ERROR', message, [{ path: 'org_identifier', message }]);
}

export async function createImportHandler(db: Kysely<Database>, body: CreateImportHandlerBody): Promise<ImportHandler> {
  const slug = body.slug ?? slugFromName(body.name);
  await refuseTakenSlug(db, body.organization_uuid, slug);
  const now = nowIso();
  const uuid = randomUUID();
  await insertHandler(db, {
    uuid,
    organization_uuid: body.organization_uuid,
    name: body.name,
    slug,
    kind: body.kind ?? DEFAULT_HANDLER_KIND,
    mapping: JSON.stringify(body.mapping),
    created_on: now,
    updated_on: now,
  });
  return requireImportHandler(db, body.organization_uuid, uuid);
}

export async function requireImportHandler(db: Kysely<Database>, organizationUuid: string, uuid: string): Promise<ImportHandler> {
  const row = await findHandler(db, organizationUuid, uuid);
  if (!row) throw notFound(`Import handler ${uuid}`);
  return toImportHandler(row);
}

export async function updateImportHandler(
  db: Kysely<Database>,
  organizationUuid: string,
  uuid: string,
  body: UpdateImportHandlerBody,
): Promise<ImportHandler> {
  const current = await requireImportHandler(db, organizationUuid, uuid);
  if (body.slug !== undefined && body.slug !== current.slug) await refuseTakenSlug(db, organizationUuid, body.slug);
  const problems = body.mapping ? mappingColumnProblems(current.kind, body.mapping) : [];
  if (problems.length > 0) {
    throw new ApiError(
      'VALIDATION_ERROR',
      `The mapping does not fit this ${current.kind} handler: ${problems.join('; ')}.`,
      problems.map((message) => ({ path: 'body.mapping', message })),
    );
  }
  await updateHandler(db, uuid, {
    ...(body.name === undefined ? {} : { name: body.name }),
    ...(body.slug === undefined ? {} : { slug: body.slug }),
    ...(body.mapping === undefined ? {} : { mapping: JSON.stringify(body.mapping) }),
    updated_on: nowIso(),
  });
  return requireImportHandler(db, organizationUuid, uuid);
}

export async function removeImportHandler(db: Kysely<Database>, organizationUuid: string, uuid: string): Promise<void> {
  await requireImportHandler(db, organizationUuid, uuid);
  await deleteHandler(db, uuid);
}

export async function listImportHandlers(db: Kysely<Database>, query: ImportHandlerListQuery): Promise<Page<ImportHandler>> {
  return toPage(await listHandlers(db, query), query);
}

function slugFromName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug === '' || slug === DEFAULT_HANDLER_SLUG ? `handler-${randomUUID().slice(0, 8)}` : slug;
}

async function refuseTakenSlug(db: Kysely<Database>, organizationUuid: string, slug: string): Promise<void> {
  const taken = await findHandlerBySlug(db, organizationUuid, slug);
  if (!taken) return;
  const message = `The slug "${slug}" is already used by import handler ${taken.uuid} ("${taken.name}"); choose another.`;
  throw new ApiError('CONFLICT', message, [{ path: 'body.slug', message: `"${slug}" is already used by the handler "${taken.name}"` }]);
}
