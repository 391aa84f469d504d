import fs from 'node:fs';
import path from 'node:path';
import { UPLOADS_DIR } from '../../server/imports/settings.ts';

/** The files in a server's upload folder. */
export function uploadsIn(dataDir: string): string[] {
  const dir = path.join(dataDir, UPLOADS_DIR);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/**
 * Polls until the upload folder holds `count` files (bounded; no timing asserted): a job removes
 * its upload just after its task reads COMPLETED or FAILED, and an aborted upload as the server
 * notices the closed connection.
 */
export async function untilUploads(dataDir: string, count: number, what: string, tries = 1200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (uploadsIn(dataDir).length === count) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: the upload folder still holds ${uploadsIn(dataDir).join(', ') || 'nothing'}`);
}
