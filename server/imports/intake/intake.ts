import type { Request, Response } from 'express';
import typeis from 'type-is';
import { z } from 'zod';
import { requireOrganization, type Principal } from '../../auth/principal.ts';
import { ApiError } from '../../http/errors.ts';
import { duplicateHeaders, mapHeader, withColumnAliases } from '../engine/columns.ts';
import { ImportInputError } from '../errors.ts';
import type { ImportKind, ImportSource } from '../kind.ts';
import type { ImportKindId } from '../schemas.ts';
import type { LayoutPosition, ResolvedLayout } from './layout.ts';
import type { ImportRuntime } from '../workers/runtime.ts';
import { sniffFormat, type ImportFormat } from './sniff.ts';
import { jsonFirstElement } from '../sources/json.ts';
import { receiveBody, receiveMultipart, type ReceivedFile } from './upload.ts';

export const processingModeSchema = z
  .enum(['background', 'sync'], { message: 'processing_mode must be background or sync' })
  .default('background')
  .describe('background (default): 202 and a task to poll. sync: 200 with the results, up to the sync row cap.');

export const DRY_RUN_DESCRIPTION =
  'true: run the whole import (parsing, validation, geocoding, lookups) without writing anything, and answer 200 with what it would give, plus dry_run_notes on what this check cannot know about the real service.';

/** dry_run from the query string or a form field: true or false (1 or 0); absent or empty is false. */
export function parseDryRun(value: string | undefined): boolean {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true' || text === '1') return true;
  throw new ApiError('VALIDATION_ERROR', `dry_run must be true or false; the request has "${value}".`, [
    { path: 'dry_run', message: 'must be true or false' },
  ]);
}

/** An import received and checked, ready to become a task. */
export interface ReceivedImport {
  source: ImportSource;
  format: ImportFormat;
  file: ReceivedFile;
  /** Multipart text fields (empty for a JSON body). */
  fields: Record<string, string>;
  /** JSON only: the array's first element, to learn the organization it names. */
  firstElement: unknown;
}

/** The 400 an input problem before any task starts is: on the field it names. */
export function inputProblem(error: ImportInputError): ApiError {
  return new ApiError('VALIDATION_ERROR', error.message, [{ path: error.field, message: error.message }]);
}

/** Checks done on receipt, before the organization is known: the format is readable (JSON: its first element). */
function inspectUpload(file: string, format: ImportFormat): { firstElement: unknown } {
  if (format !== 'json') return { firstElement: undefined };
  const { first, empty } = jsonFirstElement(file);
  if (empty) throw new ImportInputError('The JSON array is empty: there is nothing to import.');
  return { firstElement: first };
}

/**
 * Where a file's table is and how its header reads (intake/layout.ts, read by an upload reader),
 * checked (in the reader: no row over the column limit): the kind's required columns there, none named twice, a data row.
 * A 400 on the field at fault otherwise. The options are the job's (a saved mapping's aliases, the
 * request's mapping and date orders).
 */
export async function inspectFileLayout(input: {
  file: string;
  format: Exclude<ImportFormat, 'json'>;
  kindId: ImportKindId;
  kind: ImportKind;
  organizationUuid: string;
  options: Record<string, unknown>;
  position: LayoutPosition;
  imports: ImportRuntime;
}): Promise<ResolvedLayout> {
  const { imports } = input;
  try {
    const layout = await imports.layout({
      file: input.file,
      format: input.format,
      kind: input.kindId,
      organizationUuid: input.organizationUuid,
      options: input.options,
      position: input.position,
    });
    const spec = withColumnAliases(input.kind, input.options);
    mapHeader(spec, layout.header);
    const duplicates = duplicateHeaders(spec, layout.header);
    if (duplicates.length > 0)
      throw new ImportInputError(`The header row names a column twice: ${duplicates.join('; ')}. Keep one of them.`);
    if (layout.hasData === false) throw new ImportInputError('The file has a header row but no data rows.');
    return layout;
  } catch (error) {
    if (error instanceof ImportInputError) throw inputProblem(error);
    throw error;
  }
}

/**
 * Receives an import request, JSON array body or multipart file upload, streaming it to
 * <data-dir>/uploads/, and checks it. Any problem is a 4xx and the upload is removed; otherwise the
 * caller owns the upload's lease (received.file.lease) and must release or hand it over.
 */
export async function receiveImport(
  req: Request,
  res: Response,
  imports: ImportRuntime,
  accept: {
    json: boolean;
    file: boolean;
    fileFormats?: ImportFormat[];
    /** Called as the upload begins (a file: with the client's name for it; a JSON body: null), to get its readers ready meanwhile. */
    onStart?: (fileName: string | null) => void;
  },
): Promise<ReceivedImport> {
  const isJson = typeis(req, ['application/json', '+json']);
  const isMultipart = typeis(req, ['multipart/form-data']);
  if (!typeis.hasBody(req) || (!isJson && !isMultipart)) {
    req.resume();
    const kinds = [
      accept.json ? 'a JSON array (Content-Type application/json)' : null,
      accept.file ? 'a file upload (multipart/form-data with a "file" field)' : null,
    ]
      .filter(Boolean)
      .join(' or ');
    if (!typeis.hasBody(req)) throw new ApiError('VALIDATION_ERROR', `The request has no body. Send ${kinds}.`);
    throw new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      `This endpoint takes ${kinds}; the request sent ${req.headers['content-type'] ?? 'no Content-Type'}.`,
    );
  }
  if (isJson && !accept.json) {
    req.resume();
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'This endpoint takes a file upload (multipart/form-data with a "file" field).');
  }
  if (isMultipart && !accept.file) {
    req.resume();
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'This endpoint takes a JSON array (Content-Type application/json).');
  }

  const { settings } = imports;
  let file: ReceivedFile | null = null;
  let fields: Record<string, string> = {};
  try {
    if (isJson) {
      accept.onStart?.(null);
      file = await receiveBody(req, settings);
    } else {
      const received = await receiveMultipart(req, res, settings, accept.onStart);
      file = received.file;
      fields = received.fields;
      if (!file) {
        throw new ApiError('VALIDATION_ERROR', 'No file was uploaded. Send the file in the multipart form field "file".', [
          { path: 'file', message: 'Required' },
        ]);
      }
    }
    const absolute = file.lease.path;
    const format = sniffFormat(absolute);
    if (isJson && format !== 'json')
      throw new ImportInputError('The body is not a JSON array. Send an array of objects, like [{"location": "..."}].');
    if (accept.fileFormats && !isJson && !accept.fileFormats.includes(format)) {
      throw new ImportInputError(
        `This endpoint takes ${accept.fileFormats.join(' or ').toUpperCase()} files; the upload is ${format.toUpperCase()}.`,
      );
    }
    const { firstElement } = inspectUpload(absolute, format);
    return { source: isJson ? 'json' : 'file', format, file, fields, firstElement };
  } catch (error) {
    await file?.lease.release();
    if (error instanceof ImportInputError) {
      throw new ApiError('VALIDATION_ERROR', error.message, [{ path: isJson ? 'body' : error.field, message: error.message }]);
    }
    throw error;
  }
}

/** The organization of an import: the form field for files, the records' organization_uuid for JSON (the engine checks every row names the same). */
export function importOrganization(received: ReceivedImport, principal: Principal): string {
  if (received.source === 'file') {
    const org = received.fields.organization_uuid?.trim();
    if (!org) {
      throw new ApiError('VALIDATION_ERROR', 'organization_uuid is required: send it as a form field next to the file.', [
        { path: 'organization_uuid', message: 'Required' },
      ]);
    }
    requireOrganization(principal, org);
    return org;
  }
  const first = received.firstElement;
  const named =
    first && typeof first === 'object' && !Array.isArray(first) ? (first as Record<string, unknown>).organization_uuid : undefined;
  const org = typeof named === 'string' && named.trim() ? named.trim() : principal.organizationUuid;
  requireOrganization(principal, org);
  return org;
}
