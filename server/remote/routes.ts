import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { Request, Response as ExpressResponse } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import { firstOrganization } from '../orgs/organizations.ts';
import {
  claimUnownedProfiles,
  listProfiles,
  loadProfile,
  ProfileSecretError,
  removeProfile,
  saveProfile,
  UNENCRYPTED,
} from './profiles.ts';
import { receiveBody } from '../imports/intake/upload.ts';
import { bodyAsksDryRun, DRY_RUN_FIELD } from './dry-run-fields.ts';
import { type Profile, profileBodySchema, profileSchema, publicProfileSchema } from './schemas.ts';
import { REQUEST_TIMEOUT_MS, ServiceClient, ServiceError, UPLOAD_TIMEOUT_MS } from './service-client.ts';

/** Request headers worth passing on; never the sandbox credential, cookies or Host. */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept'];
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'content-disposition', 'retry-after', 'x-background-task-uuid'];
/** On a 502, the status the remote answered (401, 403, 3xx); absent when it did not answer at all. */
const REMOTE_STATUS_HEADER = 'X-Remote-Status';

const nameParams = z.object({ name: profileSchema.shape.name });

export function registerRemoteRoutes(api: Api, ctx: AppContext): void {
  const dataDir = ctx.config.dataDir;
  const missingProfile = (name: string) =>
    new ApiError(
      'NOT_FOUND',
      `There is no connection profile named "${name}" in your organization on this QR Sandbox. Add it in the GUI under Remote services, or with: qr-sandbox profile add.`,
    );
  /** The caller's organization, once profiles saved without one are given to the first organization (claimUnownedProfiles). */
  const ownerOf = async (principal: Principal) => {
    const first = await firstOrganization(ctx.db.kysely);
    const claimed = first ? claimUnownedProfiles(dataDir, first) : [];
    if (claimed.length > 0)
      ctx.logger.info({ profiles: claimed, organization_uuid: first }, 'profiles without an organization given to the first one');
    return principal.organizationUuid;
  };
  const findProfile = async (principal: Principal, name: string) => {
    try {
      return await loadProfile(dataDir, name, ctx.secretCodec, await ownerOf(principal));
    } catch (error) {
      if (error instanceof ProfileSecretError) throw new ApiError('CONFLICT', error.message);
      throw error;
    }
  };

  api.route(
    {
      method: 'get',
      path: '/api/profiles',
      tag: 'Remote service',
      summary:
        "The caller's organization's connection profiles of real service deployments (never their secrets); other organizations' are not shown.",
      response: z.object({ items: z.array(publicProfileSchema) }),
    },
    async ({ principal }) => ({ items: listProfiles(dataDir, await ownerOf(principal)) }),
  );

  api.route(
    {
      method: 'put',
      path: '/api/profiles/{name}',
      tag: 'Remote service',
      role: 'admin',
      summary:
        "Save one of the organization's connection profiles (base URL and key:secret of a real deployment); another organization's profile of the same name is its own. Stored in <data-dir>/profiles.json, mode 0600; " +
        'the desktop app encrypts the secret with the system keychain (secret_protection says how it is kept).',
      params: nameParams,
      body: profileBodySchema,
      response: publicProfileSchema,
    },
    async ({ params, body, principal }) => {
      const saved = await saveProfile(dataDir, { ...body, name: params.name }, ctx.secretCodec, await ownerOf(principal));
      if (saved.secret_protection === UNENCRYPTED)
        ctx.logger.warn({ profile: params.name }, 'profile secret stored unencrypted in profiles.json (mode 0600)');
      return saved;
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/api/profiles/{name}',
      tag: 'Remote service',
      role: 'admin',
      summary: 'Delete a connection profile.',
      params: nameParams,
      status: 204,
    },
    async ({ params, principal }) => {
      if (!removeProfile(dataDir, params.name, await ownerOf(principal))) throw missingProfile(params.name);
    },
  );

  for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
    api.route(
      {
        method,
        path: '/api/remote/{name}/{path}',
        expressPath: '/api/remote/:name/*path',
        tag: 'Remote service',
        role: 'editor',
        summary:
          "Forward this request to the service of one of the organization's profiles, with its credential (path may contain slashes).",
        description:
          'Lets the browser GUI reach a real deployment without CORS and without the secret reaching the page. ' +
          "The remote's answer comes back as it is, except that its 401/403, redirects and network failures become 502 with a plain message " +
          '(and X-Remote-Status: the status the remote answered, when it answered).',
        params: z.object({ name: z.string(), path: z.union([z.string(), z.array(z.string())]) }),
        bodyKind: 'custom',
        requestBody: { description: 'Passed on unchanged (JSON or multipart).', content: { '*/*': {} } },
        successDescription: "The remote service's answer, as it is",
        responseContent: { '*/*': "The remote service's answer body" },
        responses: {
          default: {
            description: "The remote service's answer with its status, as it is (its 401 and 403 become 502)",
            content: { '*/*': "The remote service's answer body" },
          },
        },
        omitErrors: [413, 415],
        errors: [400, 404, 409, 502],
      },
      async ({ params, req, res, principal }) => {
        const profile = await findProfile(principal, params.name);
        if (!profile) throw missingProfile(params.name);
        const rest = Array.isArray(params.path) ? params.path.join('/') : params.path;
        const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
        if (new URLSearchParams(query).has(DRY_RUN_FIELD)) {
          req.resume();
          throw dryRunRefused(rest, 'in the query string');
        }
        const hasBody = method !== 'get' && method !== 'delete';
        // Received whole before a byte is sent: a dry_run field anywhere in it stops the request here.
        const received = hasBody ? await receiveBody(req, ctx.imports.settings) : undefined;
        try {
          if (received && (await bodyAsksDryRun(received.lease.path, req.headers['content-type'] ?? ''))) {
            throw dryRunRefused(rest, 'as a field of the body');
          }
          await forward({ req, res, method }, profile, rest, query, received?.lease.path);
        } finally {
          await received?.lease.release();
        }
      },
    );
  }
}

function dryRunRefused(rest: string, where: string): ApiError {
  return new ApiError(
    'VALIDATION_ERROR',
    `The service's API has no dry run, so it would import for real: this proxy does not forward dry_run (sent ${where}), and nothing was sent. ` +
      `Check the file on this sandbox instead (POST /${rest}?dry_run=true here, or Check only in the GUI's import page), then send it without dry_run.`,
    [{ path: DRY_RUN_FIELD, message: 'not forwarded to a remote service' }],
  );
}

/** Sends the request to the profile's service and passes its answer on. */
async function forward(
  request: { req: Request; res: ExpressResponse; method: string },
  profile: Profile,
  rest: string,
  query: string,
  bodyFile: string | undefined,
): Promise<void> {
  const { req, res, method } = request;
  const client = new ServiceClient(
    { baseUrl: profile.base_url, apiKey: profile.api_key, apiSecret: profile.api_secret },
    bodyFile ? UPLOAD_TIMEOUT_MS : REQUEST_TIMEOUT_MS,
  );
  const headers = new Headers();
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  let answer: Response;
  try {
    answer = await client.request(`/${rest}${query}`, {
      method: method.toUpperCase(),
      headers,
      ...(bodyFile ? { body: Readable.toWeb(fs.createReadStream(bodyFile)) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.status === null || error.status === 401 || error.status === 403 || (error.status >= 300 && error.status < 400)) {
      throw new ApiError(
        'BAD_GATEWAY',
        error.message,
        undefined,
        error.status === null ? {} : { [REMOTE_STATUS_HEADER]: String(error.status) },
      );
    }
    res
      .status(error.status)
      .type(error.contentType || 'text/plain')
      .send(error.body);
    return;
  }
  res.status(answer.status);
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = answer.headers.get(name);
    if (value) res.setHeader(name, value);
  }
  if (!answer.body) {
    res.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream)
      .on('error', reject)
      .pipe(res)
      .on('finish', resolve)
      .on('error', reject);
  });
}
