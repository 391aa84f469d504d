import type { AppContext } from '../context.ts';
import { outsideTransaction } from '../db/outside-transaction.ts';
import { nowIso } from '../time.ts';
import { connectTimeoutMs, defaultRetrySchedule, deliveryTimeoutMs } from './config.ts';
import { type Clock, systemClock } from './delivery-clock.ts';
import {
  claimDueDeliveries,
  finishAttempts,
  nextDueAt,
  recoverInterruptedDeliveries,
  type ClaimedAttempt,
  type ClaimLimits,
  type DeliveryAfterAttempt,
  type FinishedAttempt,
} from './dispatch-store.ts';
import { maxAttempts, nextRetryDelay, type RetryScheduleName } from './retry-schedule.ts';
import { sendDelivery, type SendResult } from './sender.ts';
import { checkDeliveryTarget } from './url-policy.ts';

/** Live event types that mean "deliveries may be due now". */
export const OUTBOX_WAKE_EVENTS = new Set(['webhook.event', 'delivery.queued']);

export interface DispatcherOptions {
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Attempts in flight to one webhook at once. */
  perWebhookConcurrency?: number;
  /** Longest sleep between looks at the outbox. */
  maxIdleMs?: number;
  /** How long stop() lets in-flight attempts finish before cutting them short. */
  stopGraceMs?: number;
  clock?: Clock;
}

export const DEFAULT_CONCURRENCY = 16;
/** Half the slots: a webhook whose receiver hangs cannot hold up the others. */
export const DEFAULT_PER_WEBHOOK_CONCURRENCY = 8;
/** While attempts are in flight, look at the outbox at least this often (retries falling due). */
const BUSY_LOOK_MS = 1000;

/**
 * Sends due deliveries from the SQLite outbox: wakes on new events and on a timer, claims due
 * deliveries in a transaction, sends each with bounded concurrency, and records every attempt.
 */
export class Dispatcher {
  private readonly ctx: AppContext;
  private readonly concurrency: number;
  private readonly perWebhookConcurrency: number;
  private readonly inFlightByWebhook = new Map<string, number>();
  private readonly maxIdleMs: number;
  private readonly stopGraceMs: number;
  private readonly clock: Clock;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopController = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private pumping = false;
  private pumpAgain = false;
  private stopping = false;
  private unsubscribe: (() => void) | undefined;
  /** Finished attempts waiting to be written together. */
  private batch: { items: FinishedAttempt[]; written: Promise<void> } | undefined;

  constructor(ctx: AppContext, options: DispatcherOptions = {}) {
    this.ctx = ctx;
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.perWebhookConcurrency = options.perWebhookConcurrency ?? DEFAULT_PER_WEBHOOK_CONCURRENCY;
    this.maxIdleMs = options.maxIdleMs ?? 5000;
    this.stopGraceMs = options.stopGraceMs ?? 2000;
    this.clock = options.clock ?? systemClock;
  }

  async start(): Promise<void> {
    const recovered = await recoverInterruptedDeliveries(this.ctx.db.kysely, this.clock.wallMs(), nowIso());
    if (recovered > 0) this.ctx.logger.warn({ recovered }, 'webhook deliveries interrupted by the last stop are due again');
    this.unsubscribe = this.ctx.live.subscribe((event) => {
      if (OUTBOX_WAKE_EVENTS.has(event.type)) this.wake();
    });
    this.wake();
  }

  /** Look at the outbox soon. */
  wake(): void {
    if (this.stopping) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    setImmediate(() => void this.pump());
  }

  /** Stops claiming; lets in-flight attempts finish for a moment, then interrupts them (they stay due). */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    const grace = new Promise<void>((resolve) => setTimeout(resolve, this.stopGraceMs).unref());
    await Promise.race([Promise.all(this.inFlight), grace]);
    this.stopController.abort();
    await Promise.all(this.inFlight);
    // A pump may be between its claim and the sends it starts; wait for it to settle.
    while (this.pumping) await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all(this.inFlight);
  }

  private async pump(): Promise<void> {
    try {
      do {
        this.pumpAgain = false;
        if (this.stopping) break;
        const free = this.concurrency - this.inFlight.size;
        if (free <= 0) break;
        let asked = 0;
        const limits = () => {
          const current = this.claimLimits([]);
          asked = current.limit;
          return current;
        };
        const claims = await claimDueDeliveries(this.ctx.db, limits, this.clock.wallMs(), nowIso(), (c) => this.launchAll(c));
        if (claims.length > 0 && claims.length >= asked) this.pumpAgain = true;
      } while (this.pumpAgain);
      // Idle: sleep until the next delivery is due. Busy: every attempt that ends looks again, and a
      // short timer catches retries falling due while slow attempts hold their slots.
      if (!this.stopping) {
        if (this.inFlight.size === 0) await this.scheduleNextLook();
        else this.setTimer(BUSY_LOOK_MS);
      }
    } catch (error) {
      this.ctx.logger.error({ err: error }, 'webhook dispatcher could not read the outbox');
      if (!this.stopping) this.setTimer(this.maxIdleMs);
    } finally {
      this.pumping = false;
      if (this.pumpAgain && !this.stopping) this.wake();
    }
  }

  private async scheduleNextLook(): Promise<void> {
    const open = outsideTransaction(this.ctx.db);
    if (open !== undefined) await open;
    const next = nextDueAt(this.ctx.db);
    const wait = next === null ? this.maxIdleMs : Math.min(this.maxIdleMs, Math.max(0, next - this.clock.wallMs()));
    this.setTimer(wait);
  }

  private setTimer(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), ms);
    this.timer.unref();
  }

  /**
   * What may be claimed now: the free slots and the attempts in flight per webhook, counting the
   * attempts being recorded (`finishing`) as done.
   */
  private claimLimits(finishing: readonly FinishedAttempt[]): ClaimLimits {
    const inFlightByWebhook = new Map(this.inFlightByWebhook);
    for (const { claim } of finishing) inFlightByWebhook.set(claim.webhook_uuid, (inFlightByWebhook.get(claim.webhook_uuid) ?? 1) - 1);
    const limit = this.stopping ? 0 : this.concurrency - this.inFlight.size + finishing.length;
    return { limit: Math.max(0, limit), perWebhook: this.perWebhookConcurrency, inFlightByWebhook };
  }

  /** Starts claimed attempts; called right after the claiming transaction commits. */
  private launchAll(claims: ClaimedAttempt[]): void {
    for (const claim of claims) this.launch(claim);
  }

  private launch(claim: ClaimedAttempt): void {
    const webhook = claim.webhook_uuid;
    this.inFlightByWebhook.set(webhook, (this.inFlightByWebhook.get(webhook) ?? 0) + 1);
    const running = this.attempt(claim)
      .catch((error: unknown) =>
        this.ctx.logger.error({ err: error, delivery_id: claim.delivery_id }, 'webhook attempt could not be recorded'),
      )
      .finally(() => {
        const left = (this.inFlightByWebhook.get(webhook) ?? 1) - 1;
        if (left > 0) this.inFlightByWebhook.set(webhook, left);
        else this.inFlightByWebhook.delete(webhook);
        this.inFlight.delete(running);
        this.wake();
      });
    this.inFlight.add(running);
  }

  private async attempt(claim: ClaimedAttempt): Promise<void> {
    const target = await checkDeliveryTarget(claim.url, { allowHttp: claim.allow_http }, this.ctx.config.hostResolver);
    let result: SendResult;
    let refused = false;
    if (target.ok) {
      result = await sendDelivery(
        {
          url: claim.url,
          secret: claim.secret,
          envelope: claim.envelope,
          eventType: claim.event_type,
          deliveryId: claim.delivery_id,
          attempt: claim.attempt,
        },
        {
          target,
          timeoutMs: deliveryTimeoutMs(this.ctx.config),
          connectTimeoutMs: connectTimeoutMs(this.ctx.config),
          stopSignal: this.stopController.signal,
        },
      );
    } else {
      refused = true;
      result = {
        ok: false,
        interrupted: false,
        status_code: null,
        duration_ms: 0,
        error: `Not sent: ${target.problem}`,
        response_excerpt: null,
        request_headers: null,
        request_body: null,
      };
    }
    const schedule = claim.retry_schedule ?? defaultRetrySchedule(this.ctx.config);
    const next = this.nextState(claim, result, refused, schedule);
    const { ok: _ok, interrupted: _interrupted, ...outcome } = result;
    await this.record({ claim, outcome, next });
    // The live event says how the attempt went; what was sent is in the delivery log.
    const { request_headers: _headers, request_body: _body, ...answer } = outcome;
    this.ctx.live.publish({
      type: 'delivery.attempt',
      organization_uuid: claim.organization_uuid,
      data: {
        webhook_uuid: claim.webhook_uuid,
        delivery_id: claim.delivery_id,
        event_id: claim.event_id,
        event_type: claim.event_type,
        attempt: claim.attempt,
        attempted_on: claim.attempted_on,
        ...answer,
        status: next.status,
        next_attempt_on: next.next_attempt_at === null ? null : new Date(next.next_attempt_at).toISOString(),
      },
    });
  }

  /**
   * Attempts that end in the same turn of the event loop are written in one transaction, which
   * also claims the deliveries due for the slots they free.
   */
  private record(finished: FinishedAttempt): Promise<void> {
    if (!this.batch) {
      const items: FinishedAttempt[] = [];
      const written = new Promise<void>((resolve, reject) => {
        setImmediate(() => {
          this.batch = undefined;
          const claim = {
            limits: () => this.claimLimits(items),
            nowMs: this.clock.wallMs(),
            claimed: (c: ClaimedAttempt[]) => this.launchAll(c),
          };
          finishAttempts(this.ctx.db, items, nowIso(), claim).then(() => resolve(), reject);
        });
      });
      this.batch = { items, written };
    }
    this.batch.items.push(finished);
    return this.batch.written;
  }

  private nextState(claim: ClaimedAttempt, result: SendResult, refused: boolean, schedule: RetryScheduleName): DeliveryAfterAttempt {
    if (result.ok) return { status: 'delivered', next_attempt_at: null, status_reason: null };
    if (refused) return { status: 'failed', next_attempt_at: null, status_reason: result.error };
    if (result.interrupted) return { status: 'pending', next_attempt_at: this.clock.wallMs(), status_reason: null };
    const delay = nextRetryDelay(schedule, claim.attempt - claim.schedule_base);
    if (delay === null) {
      return {
        status: 'failed',
        next_attempt_at: null,
        status_reason: `Gave up after ${claim.attempt - claim.schedule_base} attempts (the ${schedule} schedule allows ${maxAttempts(schedule)}). Use redeliver to try again.`,
      };
    }
    return { status: 'pending', next_attempt_at: this.clock.wallMs() + delay, status_reason: null };
  }
}
