import net from 'node:net';
import { resolveTarget, systemResolver, type CheckedTarget, type HostResolver } from './pinned-fetch.ts';

export const MAX_URL_LENGTH = 2048;

/** Link-local and cloud metadata addresses: never a webhook target. */
const blocked = new net.BlockList();
blocked.addSubnet('169.254.0.0', 16, 'ipv4');
blocked.addAddress('100.100.100.200', 'ipv4');
blocked.addAddress('0.0.0.0', 'ipv4');
blocked.addSubnet('fe80::', 10, 'ipv6');
blocked.addAddress('fd00:ec2::254', 'ipv6');
blocked.addAddress('::', 'ipv6');
const blockedNames = new Set(['metadata', 'metadata.google.internal', 'instance-data', 'instance-data.ec2.internal']);

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export interface UrlPolicy {
  /** Plain http:// to hosts other than this machine (settings: allow_http_webhooks). */
  allowHttp: boolean;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; problem: string };

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

function ipFamily(address: string): 'ipv4' | 'ipv6' | null {
  const version = net.isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

function isBlockedAddress(address: string): boolean {
  const family = ipFamily(address);
  return family !== null && blocked.check(address, family);
}

export function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  const family = ipFamily(hostname);
  return family !== null && loopback.check(hostname, family);
}

/** The rules for a webhook URL (docs/webhooks.md), checked at registration and again before every attempt. */
export function checkWebhookUrl(raw: string, policy: UrlPolicy): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, problem: `The URL is longer than ${MAX_URL_LENGTH} characters.` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: `"${raw}" is not an absolute URL; give one like https://example.com/webhooks.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, problem: `The URL must start with https:// (or http:// to this machine); it starts with ${url.protocol}//.` };
  }
  if (url.username || url.password)
    return { ok: false, problem: 'The URL must not contain a user name or password; deliveries are authenticated by their signature.' };
  const host = bareHost(url);
  if (blockedNames.has(host) || isBlockedAddress(host)) {
    return { ok: false, problem: `${host} is a link-local or cloud metadata address; webhooks cannot be sent there.` };
  }
  if (url.protocol === 'http:' && !policy.allowHttp && !isLoopbackHostname(host)) {
    return {
      ok: false,
      problem:
        `Plain http:// is allowed only to this machine (127.0.0.1, localhost, [::1]); ${host} needs https://. ` +
        'An admin can allow http webhooks with PATCH /api/settings {"allow_http_webhooks": true}.',
    };
  }
  return { ok: true, url };
}

export type TargetCheck = ({ ok: true } & CheckedTarget) | { ok: false; problem: string };

/**
 * The static rules plus the addresses the host name resolves to right now (no metadata address
 * behind a name; plain http only when every address is this machine). The answer carries those
 * addresses: connect with requestPinned so the request goes to them and nowhere else.
 */
export async function checkDeliveryTarget(raw: string, policy: UrlPolicy, resolver: HostResolver = systemResolver): Promise<TargetCheck> {
  const check = checkWebhookUrl(raw, policy);
  if (!check.ok) return check;
  const host = bareHost(check.url);
  const resolved = await resolveTarget(check.url, resolver);
  // A name that does not resolve is not refused here: the attempt reports it (and is retried).
  const bad = resolved.addresses.find((a) => isBlockedAddress(a.address));
  if (bad)
    return {
      ok: false,
      problem: `${host} resolves to ${bad.address}, a link-local or cloud metadata address; webhooks cannot be sent there.`,
    };
  if (check.url.protocol === 'http:' && !policy.allowHttp && !resolved.addresses.every((a) => isLoopbackHostname(a.address))) {
    return { ok: false, problem: `Plain http:// is allowed only to this machine; ${host} is not a loopback address.` };
  }
  return { ok: true, url: check.url, ...resolved };
}
