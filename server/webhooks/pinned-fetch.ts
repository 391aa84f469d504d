/**
 * Outgoing requests (webhook deliveries, inbox forwards and replays) connect only to the addresses
 * their URL was checked against: the name is resolved once, by the check, and the connection's
 * DNS lookup answers with those addresses instead of asking again, so a name that changes address
 * between check and connect (DNS rebinding) cannot slip past the policy. The URL keeps its host
 * name, so the Host header and the TLS server name (SNI, certificate check) are the name's.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOneOptions, LookupAllOptions } from 'node:dns';
import net from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has now; tests pass their own (ServerConfig.hostResolver). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** A URL that passed the policy, with what its host resolved to when it was checked. */
export interface CheckedTarget {
  url: URL;
  /** Every address checked; empty when the name did not resolve (then `dnsError` says why). */
  addresses: ResolvedAddress[];
  dnsError: Error | null;
}

/** A name that has not resolved by then counts as not resolving (the system lookup cannot be cancelled; it is left to finish). */
export const RESOLVE_TIMEOUT_MS = 5000;

function withTimeout<T>(work: Promise<T>, hostname: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error(`getaddrinfo EAI_AGAIN ${hostname} (no answer within ${RESOLVE_TIMEOUT_MS / 1000} s)`), {
            code: 'EAI_AGAIN',
          }),
        ),
      RESOLVE_TIMEOUT_MS,
    );
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The addresses of an IP literal host as is, of a name as the resolver says. */
export async function resolveTarget(url: URL, resolver: HostResolver): Promise<Pick<CheckedTarget, 'addresses' | 'dnsError'>> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = net.isIP(host);
  if (family !== 0) return { addresses: [{ address: host, family: family === 6 ? 6 : 4 }], dnsError: null };
  try {
    const addresses = await withTimeout(resolver(host), host);
    if (addresses.length === 0)
      return { addresses, dnsError: Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }) };
    return { addresses, dnsError: null };
  } catch (error) {
    return { addresses: [], dnsError: error instanceof Error ? error : new Error(String(error)) };
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A dns.lookup stand-in that answers with the checked addresses only. */
function pinnedLookup(addresses: readonly ResolvedAddress[]) {
  return (_hostname: string, options: LookupOneOptions | LookupAllOptions | number, callback: LookupCallback) => {
    const wanted = typeof options === 'object' ? options.family : options;
    const matching = addresses.filter((a) => !wanted || a.family === wanted);
    const list = matching.length > 0 ? matching : addresses;
    if (typeof options === 'object' && options.all)
      callback(
        null,
        list.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, list[0]?.address ?? '', list[0]?.family);
  };
}

const MAX_AGENTS = 32;
/** One keep-alive pool per (host, checked addresses): connections are reused, and never to an unchecked address. */
const agents = new Map<string, Agent>();

function agentFor(url: URL, addresses: readonly ResolvedAddress[], connectTimeoutMs?: number): Agent {
  const key = `${url.hostname}|${addresses.map((a) => a.address).join(',')}|${connectTimeoutMs ?? ''}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key);
  } else {
    agent = new Agent({
      connect: { lookup: pinnedLookup(addresses), ...(connectTimeoutMs === undefined ? {} : { timeout: connectTimeoutMs }) },
    });
    if (agents.size >= MAX_AGENTS) {
      const [oldestKey, oldest] = agents.entries().next().value as [string, Agent];
      agents.delete(oldestKey);
      void oldest.close().catch(() => undefined);
    }
  }
  agents.set(key, agent);
  return agent;
}

/** What requestPinned sends: one request, never redirected. */
export interface PinnedRequest {
  method: Dispatcher.HttpMethod;
  /** An object, or a flat list of names and values (order, case and repeats kept). */
  headers: Record<string, string> | string[];
  body: string | Uint8Array | undefined;
  signal: AbortSignal;
  /** Fails when the TCP connection is not established by then; undici's 10 s when not given. */
  connectTimeoutMs?: number;
}

/**
 * One request to a checked target, connecting only to its checked addresses; when the name did
 * not resolve at the check, fails as fetch does for an unknown name, without resolving it again.
 * undici's request() rather than fetch(): no WHATWG Request, Response and stream objects around
 * the bytes, a fraction of fetch's CPU on the server's thread (webhook deliveries: many small
 * POSTs). Redirects are never followed; the body must be read or destroyed.
 */
export async function requestPinned(target: CheckedTarget, init: PinnedRequest): Promise<Dispatcher.ResponseData> {
  if (target.addresses.length === 0)
    throw new TypeError('fetch failed', { cause: target.dnsError ?? new Error('The host name did not resolve.') });
  const { connectTimeoutMs, ...options } = init;
  return request(target.url, { ...options, dispatcher: agentFor(target.url, target.addresses, connectTimeoutMs) });
}
