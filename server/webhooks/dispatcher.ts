import type { Logger } from 'pino';
import type { ServerConfig } from '../server-config.ts';
import { outsideTransaction } from '../db/outside-transaction.ts';
import type { OutboxDeps } from './outbox.ts';
import { nowIso } from '../time.ts';
import { attemptTimeoutMs, connectTimeoutMs, defaultRetrySchedule } from './config.ts';
import { type Clock, DeliveryClock, systemClock } from './delivery-clock.ts';
import {
  claimDueDeliveries,
  finishAttempts,
  followClockJump,
  lookPastWaitMs,
  nextDueAt,
  recoverInterruptedDeliveries,
  type ClaimedAttempt,
  type DeliveryAfterAttempt,
  type FinishedAttempt,
} from './dispatch-store.ts';
import { describeSchedule, maxAttempts, nextRetryDelay, type RetrySchedule } from './retry-schedule.ts';
import { sendDelivery, type SendResult } from './sender.ts';
import { sentAttempts } from './sent-attempts.ts';
import { Slots } from './slots.ts';
import { checkDeliveryTarget } from './url-policy.ts';

/** Live event types that mean "deliveries may be due now". */

export interface DispatcherOptions {
  /** Longest sleep between looks at the outbox. */
  maxIdleMs?: number;
  /** How long stop() lets in-flight attempts finish before cutting them short. */
  stopGraceMs?: number;
  clock?: Clock;
}

/**
 * Slots for attempts in flight. A laptop sends to a few receivers, mostly local apps and inboxes
 * that answer in milliseconds: four attempts at once keep one busy. A receiver that accepts and
 * never answers holds its slots for the whole-answer timeout, so each cap leaves room to the rest:
 * one webhook holds at most 4 of the 16 slots, one host (all the webhooks to one app) 6, one
 * organization (however many hosts hang) half.
 */
export const DEFAULT_CONCURRENCY = 16;
export const DEFAULT_PER_ORGANIZATION_CONCURRENCY = 8;
export const DEFAULT_PER_HOST_CONCURRENCY = 6;
export const DEFAULT_PER_WEBHOOK_CONCURRENCY = 4;
/** While attempts are in flight, look at the outbox at least this often (retries falling due). */
const BUSY_LOOK_MS = 1000;

/**
 * Sends due deliveries from the SQLite outbox: wakes on new events and on a timer, claims due
 * deliveries in a transaction, sends each in a slot (slots.ts: fair across organizations, hosts
 * and webhooks), and records every attempt. Retry waits run on its own clock (delivery-clock.ts).
 */
/** What the dispatcher uses: the outbox's database, wake-up and live bus, the logger and serve's webhook options. */
export interface DispatcherDeps extends OutboxDeps {
  logger: Logger;
  config: ServerConfig;
}

export class Dispatcher {
  private readonly ctx: DispatcherDeps;
  private readonly slots = new Slots({
    total: DEFAULT_CONCURRENCY,
    perOrganization: DEFAULT_PER_ORGANIZATION_CONCURRENCY,
    perHost: DEFAULT_PER_HOST_CONCURRENCY,
    perWebhook: DEFAULT_PER_WEBHOOK_CONCURRENCY,
  });
  private readonly maxIdleMs: number;
  private readonly stopGraceMs: number;
  private readonly time: DeliveryClock;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopController = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private pumping = false;
  private pumpAgain = false;
  private stopping = false;
  private unsubscribe: (() => void) | undefined;
  /** Finished attempts waiting to be written together. */
  private batch: { items: FinishedAttempt[]; written: Promise<void> } | undefined;

  constructor(ctx: DispatcherDeps, options: DispatcherOptions = {}) {
    this.ctx = ctx;
    this.maxIdleMs = options.maxIdleMs ?? 5000;
    this.stopGraceMs = options.stopGraceMs ?? 2000;
    this.time = new DeliveryClock(options.clock ?? systemClock);
  }

  async start(): Promise<void> {
    const recovered = await recoverInterruptedDeliveries(this.ctx.db.kysely, this.time.now(), nowIso());
    if (recovered > 0) this.ctx.logger.warn({ recovered }, 'webhook deliveries interrupted by the last stop are due again');
    this.unsubscribe = this.ctx.outbox.onWake(() => this.wake());
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
      if (this.time.jump() !== 0) {
        const jump = await followClockJump(this.ctx.db, this.time);
        if (jump !== 0)
          this.ctx.logger.warn({ jump_ms: jump }, 'the wall clock jumped; webhook retry times moved with it, their waits go on');
      }
      do {
        this.pumpAgain = false;
        if (this.stopping) break;
        let asked = 0;
        const plan = () => {
          const current = this.slots.plan(this.stopping);
          asked = current.free();
          return current;
        };
        const claims = await claimDueDeliveries(
          this.ctx.db,
          plan,
          () => this.time.now(),
          nowIso(),
          (c) => this.launchAll(c),
        );
        if (claims.length > 0 && claims.length >= asked) this.pumpAgain = true;
      } while (this.pumpAgain);
      // Idle: sleep until the next delivery is due. Busy: every attempt that ends looks again, and a
      // short timer catches retries falling due while slow attempts hold their slots.
      if (!this.stopping) {
        if (this.inFlight.size === 0) await this.scheduleNextLook();
        else this.setTimer(Math.min(BUSY_LOOK_MS, lookPastWaitMs(this.ctx.db) ?? BUSY_LOOK_MS));
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
    const wait = next === null ? this.maxIdleMs : Math.min(this.maxIdleMs, Math.max(0, next - this.time.now()));
    this.setTimer(wait);
  }

  private setTimer(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), ms);
    this.timer.unref();
  }

  /** Starts claimed attempts; called right after the claiming transaction commits. */
  private launchAll(claims: ClaimedAttempt[]): void {
    for (const claim of claims) this.launch(claim);
  }

  private launch(claim: ClaimedAttempt): void {
    this.slots.take(claim);
    const running = this.attempt(claim)
      .catch((error: unknown) =>
        this.ctx.logger.error({ err: error, delivery_id: claim.delivery_id }, 'webhook attempt could not be recorded'),
      )
      .finally(() => {
        this.inFlight.delete(running);
        this.wake();
      });
    this.inFlight.add(running);
  }

  private async attempt(claim: ClaimedAttempt): Promise<void> {
    let sent: { result: SendResult; refused: boolean };
    try {
      sent = await this.send(claim);
    } finally {
      // The connection is done: its slot is free, though the attempt is still to be recorded.
      this.slots.release(claim);
    }
    const { result, refused } = sent;
    const schedule = claim.retry_schedule ?? defaultRetrySchedule(this.ctx.config);
    const next = this.nextState(claim, result, refused, schedule);
    const { ok: _ok, interrupted: _interrupted, ...outcome } = result;
    const finished: FinishedAttempt = {
      claim,
      outcome,
      next,
      ...(result.ok ? { webhook_health: 'succeeded' as const } : result.interrupted ? {} : { webhook_health: 'failed' as const }),
    };
    await this.record(finished);
    // The live event says how the attempt went; what was sent is in the delivery log.
    const {
      request_headers: _headers,
      request_body: _body,
      response_headers: _answerHeaders,
      response_body: _answerBody,
      response_body_truncated: _truncated,
      ...answer
    } = outcome;
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
        next_attempt_on: finished.next_attempt_at == null ? null : new Date(finished.next_attempt_at).toISOString(),
      },
    });
    if (next.status === 'failed' && !refused) this.announceExhausted(claim, next);
    if (finished.disabled_reason) this.announceDisabled(claim, finished.disabled_reason);
  }

  /** A delivery given up after its schedule's last attempt: the log and the GUI (live) say so. */
  private announceExhausted(claim: ClaimedAttempt, next: DeliveryAfterAttempt): void {
    const data = {
      webhook_uuid: claim.webhook_uuid,
      delivery_id: claim.delivery_id,
      event_id: claim.event_id,
      event_type: claim.event_type,
      attempts: claim.attempt,
      status_reason: next.status_reason,
    };
    this.ctx.logger.warn(data, 'webhook delivery failed: its retries are used up');
    this.ctx.live.publish({ type: 'delivery.exhausted', organization_uuid: claim.organization_uuid, data });
  }

  private announceDisabled(claim: ClaimedAttempt, reason: string): void {
    const data = { webhook_uuid: claim.webhook_uuid, url: claim.url, disabled_reason: reason };
    this.ctx.logger.warn(data, 'webhook disabled automatically: it failed continuously');
    this.ctx.live.publish({ type: 'webhook.disabled', organization_uuid: claim.organization_uuid, data });
  }

  /** The POST of one attempt, or why it was not sent (the URL fails the policy now). */
  private async send(claim: ClaimedAttempt): Promise<{ result: SendResult; refused: boolean }> {
    const target = await checkDeliveryTarget(claim.url, { allowHttp: claim.allow_http }, this.ctx.config.hostResolver);
    if (!target.ok) {
      const result: SendResult = {
        ok: false,
        interrupted: false,
        status_code: null,
        duration_ms: 0,
        error: `Not sent: ${target.problem}`,
        response_excerpt: null,
        response_headers: null,
        response_body: null,
        response_body_truncated: false,
        request_headers: null,
        request_body: null,
      };
      return { result, refused: true };
    }
    const result = await sendDelivery(
      {
        url: claim.url,
        secret: claim.secret,
        envelope: claim.envelope,
        eventType: claim.event_type,
        deliveryId: claim.delivery_id,
        attempt: claim.attempt,
        diagnostics: claim.diagnostics,
      },
      {
        target,
        timeoutMs: attemptTimeoutMs(this.ctx.config, claim.timeout_s),
        connectTimeoutMs: connectTimeoutMs(this.ctx.config),
        stopSignal: this.stopController.signal,
        sentAttempts: sentAttempts(this.ctx),
      },
    );
    return { result, refused: false };
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
          const claim = { plan: () => this.slots.plan(this.stopping), claimed: (c: ClaimedAttempt[]) => this.launchAll(c) };
          finishAttempts(this.ctx.db, items, () => this.time.now(), nowIso(), claim).then(() => resolve(), reject);
        });
      });
      this.batch = { items, written };
    }
    this.batch.items.push(finished);
    return this.batch.written;
  }

  private nextState(claim: ClaimedAttempt, result: SendResult, refused: boolean, schedule: RetrySchedule): DeliveryAfterAttempt {
    if (result.ok) return { status: 'delivered', retry_in_ms: null, status_reason: null };
    if (refused) return { status: 'failed', retry_in_ms: null, status_reason: result.error };
    if (result.interrupted) return { status: 'pending', retry_in_ms: 0, status_reason: null };
    const delay = nextRetryDelay(schedule, claim.attempt - claim.schedule_base);
    if (delay === null) {
      return {
        status: 'failed',
        retry_in_ms: null,
        status_reason: `Gave up after ${claim.attempt - claim.schedule_base} attempts (${describeSchedule(schedule)} allows ${maxAttempts(schedule)}). Use redeliver to try again.`,
      };
    }
    return { status: 'pending', retry_in_ms: delay, status_reason: null };
  }
}
