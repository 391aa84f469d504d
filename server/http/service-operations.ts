/**
 * The operations the real service has (method and path); every other route of this server is the
 * sandbox's own and is marked so in the OpenAPI document (sandbox-only.ts).
 */
export const SERVICE_OPERATIONS: ReadonlySet<string> = new Set([
  'get /api/background-tasks/uuid/{background_task_uuid}',
  'get /api/background-tasks',
  'post /api/appointment_schedule/bulk',
  'get /api/appointment_schedule/bulk/template',
  'get /api/appointment_schedule/bulk/errors/{background_task_uuid}',
  'get /api/qrcodes',
  'get /api/qrcodes/uuid/{uuid}',
  'post /api/qrcodes',
  'patch /api/qrcodes/uuid/{uuid}',
  'delete /api/qrcodes/uuid/{uuid}',
  'post /api/qrcodes/bulk-import',
  'post /api/qrcodes/bulk',
  'get /api/qrcodes/bulk/{background_task_uuid}/errors',
  'post /api/webhooks/register',
  'get /api/webhooks',
  'get /api/webhooks/uuid/{uuid}',
  'patch /api/webhooks/uuid/{uuid}',
  'delete /api/webhooks/uuid/{uuid}',
]);

export const isServiceOperation = (method: string, path: string): boolean => SERVICE_OPERATIONS.has(`${method} ${path}`);
