/** How many attempts may be in flight at once: in all, and to one organization, destination host and webhook. */
export interface SlotCaps {
  total: number;
  perOrganization: number;
  perHost: number;
  perWebhook: number;
}

/** What a delivery's slot is counted against. */
export interface SlotOwner {
  organization_uuid: string;
  webhook_uuid: string;
  url: string;
}

/** The destination host of a webhook URL (name and port): the receiver that may hang. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

class Counts {
  readonly byOrganization = new Map<string, number>();
  readonly byHost = new Map<string, number>();
  readonly byWebhook = new Map<string, number>();
  total = 0;

  copy(): Counts {
    const copy = new Counts();
    for (const [from, to] of [
      [this.byOrganization, copy.byOrganization],
      [this.byHost, copy.byHost],
      [this.byWebhook, copy.byWebhook],
    ] as const)
      for (const [key, n] of from) to.set(key, n);
    copy.total = this.total;
    return copy;
  }

  add(owner: SlotOwner, host: string, by: 1 | -1): void {
    this.total += by;
    bump(this.byOrganization, owner.organization_uuid, by);
    bump(this.byHost, host, by);
    bump(this.byWebhook, owner.webhook_uuid, by);
  }
}

function bump(map: Map<string, number>, key: string, by: number): void {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}

/**
 * The dispatcher's slots: the attempts in flight by organization, host and webhook, and whose turn
 * is next. Claims are planned on a copy (plan()), inside the claiming transaction; take() counts
 * them once they start, so a transaction that is run again cannot count its claims twice.
 */
export class Slots {
  private readonly caps: SlotCaps;
  private readonly counts = new Counts();
  /** The host of every webhook seen (its URL may change): a full host's webhooks are left out of the due query. */
  private readonly hosts = new Map<string, string>();
  /** When each organization and host last got a slot: of equals, the one waiting longest goes first. */
  private readonly lastTurn = new Map<string, number>();
  private turn = 0;

  constructor(caps: SlotCaps) {
    this.caps = caps;
  }

  take(owner: SlotOwner): void {
    const host = hostOf(owner.url);
    this.hosts.set(owner.webhook_uuid, host);
    this.counts.add(owner, host, 1);
    this.turn++;
    this.lastTurn.set(owner.organization_uuid, this.turn);
    this.lastTurn.set(`host:${host}`, this.turn);
  }

  release(owner: SlotOwner): void {
    this.counts.add(owner, hostOf(owner.url), -1);
  }

  /** A plan for one claim: `stopping` plans nothing. */
  plan(stopping = false): SlotPlan {
    return new SlotPlan(this.caps, stopping ? undefined : this.counts.copy(), this.hosts, (key) => this.lastTurn.get(key) ?? 0);
  }
}

/** One claim's view of the slots: what is full, and which due deliveries go now. */
export class SlotPlan {
  private readonly caps: SlotCaps;
  private readonly counts: Counts | undefined;
  private readonly hosts: Map<string, string>;
  private readonly lastTurn: (key: string) => number;

  constructor(caps: SlotCaps, counts: Counts | undefined, hosts: Map<string, string>, lastTurn: (key: string) => number) {
    this.caps = caps;
    this.counts = counts;
    this.hosts = hosts;
    this.lastTurn = lastTurn;
  }

  free(): number {
    return this.counts ? Math.max(0, this.caps.total - this.counts.total) : 0;
  }

  /** Webhooks that cannot get a slot now: at their own cap or going to a full host (the due query leaves them out). */
  fullWebhooks(): string[] {
    const counts = this.counts;
    if (!counts) return [];
    const full = new Set<string>();
    for (const [webhook, n] of counts.byWebhook) if (n >= this.caps.perWebhook) full.add(webhook);
    for (const [webhook, host] of this.hosts) if ((counts.byHost.get(host) ?? 0) >= this.caps.perHost) full.add(webhook);
    return [...full];
  }

  /** Organizations at their cap (the due query leaves them out). */
  fullOrganizations(): string[] {
    const counts = this.counts;
    if (!counts) return [];
    return [...counts.byOrganization].filter(([, n]) => n >= this.caps.perOrganization).map(([organization]) => organization);
  }

  /**
   * The due deliveries (oldest first) to start now, as many as fit: each free slot goes to the
   * organization with the fewest attempts in flight (of equals, the one waiting longest), within it
   * to the host with the fewest, and there to the oldest delivery whose webhook has room.
   */
  pick<T extends SlotOwner>(due: readonly T[]): T[] {
    const counts = this.counts;
    if (!counts) return [];
    const queues = new Map<string, Map<string, T[]>>();
    for (const row of due) {
      const host = hostOf(row.url);
      this.hosts.set(row.webhook_uuid, host);
      const hosts = queues.get(row.organization_uuid) ?? new Map<string, T[]>();
      queues.set(row.organization_uuid, hosts);
      const queue = hosts.get(host) ?? [];
      hosts.set(host, queue);
      queue.push(row);
    }
    const picked: T[] = [];
    const turns = new Map<string, number>();
    const turnOf = (key: string) => turns.get(key) ?? this.lastTurn(key);
    // Turns given in this plan come after every earlier one.
    let turn = Number.MAX_SAFE_INTEGER / 2;
    const fits = (row: T) => (counts.byWebhook.get(row.webhook_uuid) ?? 0) < this.caps.perWebhook;
    while (this.free() > 0) {
      const organizations = [...queues].filter(
        ([organization, hosts]) =>
          (counts.byOrganization.get(organization) ?? 0) < this.caps.perOrganization &&
          [...hosts].some(([host, queue]) => (counts.byHost.get(host) ?? 0) < this.caps.perHost && queue.some(fits)),
      );
      const organization = fairest(organizations, counts.byOrganization, turnOf);
      if (!organization) break;
      const [organizationUuid, hosts] = organization;
      const open = [...hosts].filter(([host, queue]) => (counts.byHost.get(host) ?? 0) < this.caps.perHost && queue.some(fits));
      const host = fairest(open, counts.byHost, (key) => turnOf(`host:${key}`));
      if (!host) break;
      const [hostName, queue] = host;
      const index = queue.findIndex(fits);
      const [row] = queue.splice(index, 1);
      if (!row) break;
      picked.push(row);
      counts.add(row, hostName, 1);
      turn++;
      turns.set(organizationUuid, turn);
      turns.set(`host:${hostName}`, turn);
    }
    return picked;
  }
}

/** The entry with the fewest in flight, of equals the one whose last turn was longest ago. */
function fairest<V>(entries: [string, V][], inFlight: Map<string, number>, lastTurn: (key: string) => number): [string, V] | undefined {
  let best: [string, V] | undefined;
  let bestKey: [number, number] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (const entry of entries) {
    const key: [number, number] = [inFlight.get(entry[0]) ?? 0, lastTurn(entry[0])];
    if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
      best = entry;
      bestKey = key;
    }
  }
  return best;
}
