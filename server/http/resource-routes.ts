import type { z } from 'zod';
import { requireOrganization } from '../auth/principal.ts';
import type { Api, AuthedInput, Out, RouteSpec, Schema } from './api.ts';

/** A body or query that names the organization it acts on. */
type OrgScoped = z.ZodType<{ organization_uuid: string }>;
const organizationOf = (input: unknown) => (input as z.output<OrgScoped>).organization_uuid;

/** `GET {path}` whose query names the organization it reads, which must be the caller's; `read` gets the query and the whole input. */
export function organizationGet<Q extends OrgScoped, P extends Schema = undefined>(
  api: Api,
  spec: Omit<RouteSpec<P, Q, undefined>, 'method'> & { query: Q },
  read: (query: Out<Q>, input: AuthedInput<P, Q, undefined>) => Promise<unknown>,
): void {
  api.route<P, Q, undefined>({ ...spec, method: 'get' }, (input) => {
    requireOrganization(input.principal, organizationOf(input.query));
    return read(input.query, input);
  });
}

/** What each route documents itself; method, path, tag, params and status come from the helper. */
interface Doc {
  summary: string;
  description?: string;
  response?: z.ZodType;
  errors?: number[];
}

/**
 * The routes of a resource an organization owns. `POST {path}` and `GET {path}` name the
 * organization in their body or query, which must be the caller's; one item is
 * `{path}/uuid/{uuid}`, and its handler gets the caller's organization and the uuid to look it up in.
 * Create, get and update answer the `item` schema unless their doc names another response.
 */
export function resourceRoutes<P extends z.ZodType<{ uuid: string }>>(
  api: Api,
  resource: { path: string; tag: string; params: P; item: z.ZodType },
) {
  const { tag, params } = resource;
  const response = resource.item;
  const itemPath = `${resource.path}/uuid/{uuid}`;

  return {
    /** `POST {path}` (or `path`), 201 with what `create` answers. */
    create<B extends OrgScoped>(doc: Doc & { path?: string; body: B }, create: (body: Out<B>) => Promise<unknown>): void {
      api.route({ response, ...doc, method: 'post', path: doc.path ?? resource.path, tag, status: 201 }, async ({ body, principal }) => {
        requireOrganization(principal, organizationOf(body));
        return create(body);
      });
    },

    /** `GET {path}` (or `path`, e.g. the items of one item, with `params`): a page of the organization's items. */
    list<Q extends OrgScoped, LP extends Schema = undefined>(
      doc: Doc & { path?: string; params?: LP; query: Q },
      list: (query: Out<Q>, params: Out<LP>) => Promise<unknown>,
    ): void {
      organizationGet(api, { ...doc, path: doc.path ?? resource.path, tag }, (query, { params }) => list(query, params));
    },

    /** `GET {path}/uuid/{uuid}`. */
    get<Q extends Schema = undefined>(
      doc: Doc & { query?: Q },
      get: (organizationUuid: string, uuid: string, input: AuthedInput<P, Q, undefined>) => Promise<unknown>,
    ): void {
      api.route<P, Q, undefined>({ response, ...doc, method: 'get', path: itemPath, tag, params }, (input) =>
        get(input.principal.organizationUuid, input.params.uuid, input),
      );
    },

    /** `PATCH {path}/uuid/{uuid}`, answering the changed item. */
    update<B extends z.ZodType>(
      doc: Doc & { body: B },
      update: (organizationUuid: string, uuid: string, body: Out<B>) => Promise<unknown>,
    ): void {
      api.route({ response, ...doc, method: 'patch', path: itemPath, tag, params }, ({ params, body, principal }) =>
        update(principal.organizationUuid, params.uuid, body),
      );
    },

    /** `DELETE {path}/uuid/{uuid}` (or `path` below it), 204. */
    remove(doc: Omit<Doc, 'response'> & { path?: string }, remove: (organizationUuid: string, uuid: string) => Promise<unknown>): void {
      api.route({ ...doc, method: 'delete', path: doc.path ?? itemPath, tag, params, status: 204 }, ({ params, principal }) =>
        remove(principal.organizationUuid, params.uuid),
      );
    },
  };
}
