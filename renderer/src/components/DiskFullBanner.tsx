import { useEffect, useState } from 'react';
import { call } from '../api/client.ts';
import type { Health } from '../api/types.ts';

const POLL_MS = 3_000;

/** At the top of every page while the server's disk is full (its health says so); gone once space is back. */
export function DiskFullBanner() {
  const [full, setFull] = useState(false);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const health = await call<Health>({ method: 'GET', path: '/api/health' });
        if (!stopped) setFull(health.disk_full);
      } catch {
        // Unreachable server: the live indicator says so.
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);

  if (!full) return null;
  return (
    <div className="notice notice-error disk-full-banner" role="alert">
      <span>
        <strong>The disk is full.</strong> Nothing new can be saved: imports, edits and received webhooks are refused until you free some
        space on the drive that holds QR Sandbox's data folder. Everything already saved can still be read; this notice goes away by itself
        once there is room again.
      </span>
    </div>
  );
}
