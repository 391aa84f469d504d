import { requireOrganization } from '../auth/principal.ts';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { ApiError } from '../http/errors.ts';
import { resolveImportHandler } from '../import-handlers/handlers.ts';
import { DEFAULT_HANDLER_SLUG } from '../import-handlers/schemas.ts';
import { handlersOfKind, toImportHandler } from '../import-handlers/store.ts';
import { ImportInputError } from './errors.ts';
import { importKindIdsInWords, importKinds, isImportKindId } from './kinds.ts';
import { PREVIEW_ROWS } from './preview/preview.ts';
import { importKindIds, importPreviewSchema } from './schemas.ts';
import { sniffFormat } from './intake/sniff.ts';
import { receiveMultipart, type ReceivedFile } from './intake/upload.ts';
import { LAYOUT_FORM_PROPERTIES, parseLayoutRequest } from './intake/layout-request.ts';
import { withFileLayout } from './engine/file-layout.ts';

const field = (name: string, message: string) => new ApiError('VALIDATION_ERROR', message, [{ path: name, message }]);

export function registerImportRoutes(api: Api, ctx: AppContext): void {
  const settings = ctx.imports.settings;
  api.route(
    {
      method: 'post',
      path: '/api/imports/preview',
      tag: 'Imports',
      // It writes nothing, so a viewer key may check a file too.
      role: 'viewer',
      summary: `Preview an import file: the detected columns matched to the expected ones and the first ${PREVIEW_ROWS} rows, each with the problems that will certainly exclude it.`,
      description:
        'Multipart: file (CSV, Excel .xlsx or .xls, OpenDocument .ods, or JSON; recognised by its content), kind (qrcodes or appointments), organization_uuid, optional org_identifier, sheet, header_row, mapping and date_order (as the imports take them). ' +
        "Uses the importer's own parsers, header matching and row checks, then runs the import's own writer on the rows shown " +
        '(addresses located, services, tags and time zones looked up, duplicates among them) in a transaction that is rolled back: ' +
        "each row's problems are exactly the error the import would give it now. Reads only the first rows; keeps nothing. " +
        `The read has a deadline (${settings.readDeadlineMs / 1000} s, serve --upload-read-seconds): a file that takes longer is answered 400 naming it; ` +
        "503 with Retry-After when this organization's earlier uploads or other organizations' kept every upload reader busy until then.",
      bodyKind: 'custom',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file', 'kind', 'organization_uuid'],
              properties: {
                file: { type: 'string', format: 'binary' },
                kind: { type: 'string', enum: [...importKindIds] },
                organization_uuid: { type: 'string' },
                org_identifier: { type: 'string' },
                ...LAYOUT_FORM_PROPERTIES,
              },
            },
          },
        },
      },
      response: importPreviewSchema,
      errors: [409, 413, 415],
    },
    async ({ req, res, principal }) => {
      if (!req.is('multipart/form-data')) {
        req.resume();
        throw new ApiError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the file to preview as multipart/form-data with a "file" field, a "kind" and an "organization_uuid".',
        );
      }
      let file: ReceivedFile | null = null;
      ctx.imports.warmUploadReader();
      try {
        const received = await receiveMultipart(req, res, settings);
        file = received.file;
        const { fields } = received;
        const kindName = fields.kind?.trim() ?? '';
        if (!kindName) throw field('kind', `kind is required: ${importKindIdsInWords('or')}.`);
        if (!isImportKindId(kindName)) throw field('kind', `kind must be ${importKindIdsInWords('or')} (got "${kindName}").`);
        const org = fields.organization_uuid?.trim();
        if (!org) throw field('organization_uuid', 'organization_uuid is required: send it as a form field next to the file.');
        requireOrganization(principal, org);
        const slug = fields.org_identifier?.trim();
        const entry = importKinds[kindName];
        if (!entry.usesHandlers && slug && slug !== DEFAULT_HANDLER_SLUG) {
          throw field(
            'org_identifier',
            `Import handlers ("${slug}") do not apply to ${entry.label.toLowerCase()}: their files are read by the template's column names.`,
          );
        }
        const handler = await resolveImportHandler(ctx.db.kysely, org, slug);
        if (!file) throw field('file', 'No file was uploaded. Send the file in the multipart form field "file".');
        const absolute = file.lease.path;
        const kind = await entry.load();
        const request = parseLayoutRequest(fields, kind);
        const options = withFileLayout(entry.previewOptions(handler), {
          ...(request.mapping ? { mapping: request.mapping } : {}),
          ...(request.dateOrders ? { dateOrders: request.dateOrders } : {}),
        });
        return await ctx.imports.preview({
          file: absolute,
          format: sniffFormat(absolute),
          kind: kindName,
          organizationUuid: org,
          options,
          savedMappings:
            slug && slug !== DEFAULT_HANDLER_SLUG ? [] : (await handlersOfKind(ctx.db.kysely, org, kindName)).map(toImportHandler),
          position: {
            ...(request.sheet === undefined ? {} : { sheet: request.sheet }),
            ...(request.headerRow === undefined ? {} : { headerRow: request.headerRow }),
          },
        });
      } catch (error) {
        if (error instanceof ImportInputError) throw field(error.field, error.message);
        throw error;
      } finally {
        await file?.lease.release();
      }
    },
  );
}
