import type { AppContext } from '../context.ts';
import type { Api } from '../http/api.ts';
import {
  resetBodySchema,
  resetResultSchema,
  restoredSnapshotSchema,
  savedSnapshotSchema,
  saveSnapshotBodySchema,
  snapshotListSchema,
  snapshotParamsSchema,
} from './schemas.ts';
import { deleteSnapshot, listSnapshots, resetOrganization, restoreSnapshot, saveSnapshot } from './snapshots.ts';

const tag = 'Snapshots';
const scope =
  "Acts on the caller's organization (the one its API key belongs to). A snapshot holds all of the organization's data: QR codes and tags, " +
  'appointments, services, import handlers, import tasks with their excluded rows, webhooks with their events, deliveries and attempts, ' +
  'service confirmations, inboxes with their messages, and settings. Not its API keys (they stay as they are, so the key that restores ' +
  'keeps working), not other organizations, not uploaded files. Stored in the data dir as snapshots/ORGANIZATION_UUID/NAME.sqlite.';

/** Save, list, restore and delete snapshots of an organization's data, and empty it (admin). */
export function registerSnapshotRoutes(api: Api, ctx: AppContext): void {
  api.route(
    {
      method: 'get',
      path: '/api/snapshots',
      tag,
      role: 'admin',
      summary: "The organization's snapshots, newest first, with size and time (admin).",
      description: scope,
      response: snapshotListSchema,
    },
    async ({ principal }) => ({ items: listSnapshots(ctx, principal.organizationUuid) }),
  );
  api.route(
    {
      method: 'post',
      path: '/api/snapshots',
      tag,
      role: 'admin',
      summary: "Save all of the organization's data as a named snapshot (admin).",
      description: `${scope} Read in one transaction, so it is one moment's data. 409 while an import of the organization is PENDING or PROCESSING, or when the name is taken and \`replace\` is not true.`,
      body: saveSnapshotBodySchema,
      status: 201,
      response: savedSnapshotSchema,
      errors: [409],
    },
    async ({ body, principal }) => saveSnapshot(ctx, principal.organizationUuid, body.name, body.replace),
  );
  api.route(
    {
      method: 'post',
      path: '/api/snapshots/{name}/restore',
      tag,
      role: 'admin',
      summary: "Replace all of the organization's data by a snapshot's, atomically (admin).",
      description:
        `${scope} One transaction: everything the organization has now is deleted and the snapshot's rows inserted (QR codes indexed for search), ` +
        'or, on any error, nothing changes. Pending deliveries of the snapshot are sent again. 409 while an import of the organization is ' +
        'PENDING or PROCESSING (nothing changes: wait for it, then restore). 400 when rows of the file name another organization, ' +
        'or parent rows not in the file (an edited file; nothing changes). Afterwards an `organization.replaced` event on /api/live tells GUIs to read everything again.',
      params: snapshotParamsSchema,
      response: restoredSnapshotSchema,
      errors: [400, 404, 409],
    },
    async ({ params, principal }) => restoreSnapshot(ctx, principal.organizationUuid, params.name),
  );
  api.route(
    {
      method: 'delete',
      path: '/api/snapshots/{name}',
      tag,
      role: 'admin',
      summary: 'Delete a snapshot file (admin). The organization’s data is not touched.',
      params: snapshotParamsSchema,
      status: 204,
      errors: [404],
    },
    async ({ params, principal }) => deleteSnapshot(ctx, principal.organizationUuid, params.name),
  );
  api.route(
    {
      method: 'post',
      path: '/api/reset',
      tag,
      role: 'admin',
      summary: 'Empty the organization: delete all its data in one transaction (admin). Body {"empty": true}.',
      description:
        'Deletes what the demo reset deletes (QR codes and tags, appointments, service confirmations, import tasks with their excluded rows and ' +
        'uploads, webhooks with their events and deliveries, inboxes with their messages, import handlers, services) and seeds nothing. ' +
        'API keys, settings and snapshots stay. 409 while an import of the organization is PENDING or PROCESSING (nothing is deleted). ' +
        'Afterwards an `organization.replaced` event on /api/live.',
      body: resetBodySchema,
      response: resetResultSchema,
      errors: [409],
    },
    async ({ principal }) => resetOrganization(ctx, principal.organizationUuid),
  );
}
