/**
 * Does a URL reach one of this server's inboxes? Answered the way a request would be routed, not
 * by comparing text: the router ignores case and a trailing slash and decodes percent-escapes in the
 * inbox id; the WHATWG URL parser already turns 0x7f.1, 2130706433 and the like into 127.0.0.1.
 * A host is this server when it is a loopback address or name (any of 127/8, ::1, ::ffff:127.x,
 * localhost), the bound address, any address of this machine when bound to a wildcard, or an extra
 * Host name it was started with (a tunnel, whatever its port). Names count by what they resolve to.
 */
import os from 'node:os';
import net from 'node:net';
import type { ServerConfig } from '../server-config.ts';
import { isLoopbackHostname } from '../webhooks/url-policy.ts';
import { INBOX_PATH_PREFIX } from './inbox-path.ts';

function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

function decoded(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** The inbox route, matched as Express matches it (case-insensitive, not strict), and a little wider. */
export function isInboxPath(pathname: string): boolean {
  const path = decoded(pathname)
    .toLowerCase()
    .replace(/\/{2,}/g, '/');
  return path.startsWith(INBOX_PATH_PREFIX);
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

function machineAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const entry of list ?? []) addresses.add(bare(entry.address.split('%')[0] ?? ''));
  return addresses;
}

/** An address (or name) this server answers on. */
export function isOwnHost(config: ServerConfig, host: string): boolean {
  const name = bare(host);
  if (isLoopbackHostname(name)) return true;
  const bound = bare(config.host);
  if (name === bound) return true;
  if (isWildcard(bound) && net.isIP(name) !== 0) return machineAddresses().has(name) || isWildcard(name);
  return false;
}

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/**
 * True when `url` reaches an inbox of this server. `addresses` are what its host name resolved
 * to (empty for an IP literal); any one of them being this server is enough.
 */
export function reachesOwnInbox(config: ServerConfig, url: URL, addresses: readonly string[] = []): boolean {
  if (!isInboxPath(url.pathname)) return false;
  const host = bare(url.hostname);
  if (config.allowedHosts.some((allowed) => bare(allowed.replace(/:\d+$/, '')) === host)) return true;
  if (portOf(url) !== config.port) return false;
  return [host, ...addresses].some((candidate) => isOwnHost(config, candidate));
}
