/** A webhook's API path (GET, PATCH, DELETE /api/webhooks/uuid/{uuid}); its other calls are under it. */
export function webhookPath(uuid: string): string {
  return `/api/webhooks/uuid/${encodeURIComponent(uuid)}`;
}
