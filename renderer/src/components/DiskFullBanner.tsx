import { useQuery } from '@tanstack/react-query';
import { getQuery } from '../api/get-query.ts';

const POLL_MS = 3_000;

/** At the top of every page while the server's disk is full (its health says so); gone once space is back. */
export function DiskFullBanner() {
  // An unreachable server is not a full disk: the live indicator says so, and the last answer stands.
  const health = useQuery({ ...getQuery('/api/health', {}), refetchInterval: POLL_MS, refetchIntervalInBackground: true });
  if (!health.data?.disk_full) return null;
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
