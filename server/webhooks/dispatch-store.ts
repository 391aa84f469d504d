import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import { outsideTransaction } from '../db/outside-transaction.ts';
import { param, perDatabase, prepare, type Prepared } from '../db/prepared.ts';
import type { Database, WebhookDeliveryAttemptTable } from '../db/schema.ts';
import { writeNow } from '../db/write-now.ts';
import type { DeliveryClock } from './delivery-clock.ts';
import { parseWebhookSchedule, type RetrySchedule, type RetryScheduleName } from './retry-schedule.ts';
import type { SlotPlan } from './slots.ts';
import { DEFAULT_AUTO_DISABLE_AFTER_S, describeDuration } from './auto-disable.ts';
import { nowMicros } from './microtime.ts';

/** The fewest due deliveries one look reads, so that several organizations' oldest are among them. */
const MIN_DUE_WINDOW = 32;
/**
 * A look past the due deliveries without a free slot reads every due delivery (the due index knows
 * no webhook): after one, the next waits this many times as long as it took, so that a deep backlog
 * to a hanging receiver costs at most a twentieth of the time, while a shallow one is looked past
 * at once.
 */
const LOOK_PAST_COST_FACTOR = 20;

/** One claimed attempt: everything the sender needs, read in the claiming transaction. */
export interface ClaimedAttempt {
  delivery_id: string;
  attempt: number;
  attempted_on: string;
  schedule_base: number;
  event_id: string;
  event_type: string;
  envelope: string;
  organization_uuid: string;
  webhook_uuid: string;
  url: string;
  secret: string;
  allow_http: boolean;
  /** The webhook's own schedule, else the organization's chosen one; null: the server's default. */
  retry_schedule: RetrySchedule | null;
  /** How long the webhook may fail continuously before it is disabled; 0: never. */
  auto_disable_after_ms: number;
  /** The organization's time limit of one attempt, in seconds; null: the server's default. */
  timeout_s: number | null;
  /** The webhook's sandbox_diagnostics: send the X-Sandbox-* headers too. */
  diagnostics: boolean;
}

export interface AttemptOutcome {
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
  /** The answer's headers as a JSON object, and its body up to RESPONSE_BODY_BYTES; null when no answer came. */
  response_headers: string | null;
  response_body: string | null;
  response_body_truncated: boolean;
  /** What was sent: the headers as a JSON object, and the encrypted body; null when nothing was sent. */
  request_headers: string | null;
  request_body: string | null;
}

export interface DeliveryAfterAttempt {
  status: 'pending' | 'delivered' | 'failed';
  /** Pending: the wait before the next attempt; its due time is set when the attempt is recorded. */
  retry_in_ms: number | null;
  status_reason: string | null;
}

export interface FinishedAttempt {
  claim: Pick<ClaimedAttempt, 'delivery_id' | 'attempt' | 'attempted_on' | 'webhook_uuid'> &
    Partial<Pick<ClaimedAttempt, 'auto_disable_after_ms'>>;
  outcome: AttemptOutcome;
  next: DeliveryAfterAttempt;
  /** What the attempt says of the webhook's health: a success ends a failing streak, a failure starts or continues one. */
  webhook_health?: 'succeeded' | 'failed';
  /** Set when recorded: the due time written (epoch ms on the dispatcher's clock), null unless pending. */
  next_attempt_at?: number | null;
  /** Set when recorded: why the webhook was disabled automatically by this attempt's failure. */
  disabled_reason?: string;
}

/** The dispatcher's time in epoch ms (see delivery-clock.ts). */
export type Now = () => number;

/** The hot path's statements, compiled once per database: a delivery runs each of them once or twice. */
class DispatchStatements {
  /** When the next look past the deliveries without a free slot may run (performance.now()), and whether one was put off. */
  readonly lookPast = { at: 0, putOff: false };
  /** Due deliveries, oldest first, leaving out the webhooks and organizations (JSON arrays) that have no free slot. */
  readonly due: Prepared<'now_ms' | 'limit' | 'full_webhooks' | 'full_organizations'>;
  /** What the sender needs of one delivery to claim, read only for those picked. */
  readonly details: Prepared<'delivery_id'>;
  readonly claim: Prepared<'delivery_id' | 'now'>;
  readonly stop: Prepared<'delivery_id' | 'reason' | 'now'>;
  readonly attempt: Prepared<AttemptParam>;
  readonly after: Prepared<'delivery_id' | 'status' | 'next_attempt_at' | 'status_reason' | 'now'>;
  /** The earliest next_attempt_at of a pending delivery not in flight (the partial index's first entry). */
  readonly nextDue: Prepared<never>;
  /** A webhook's failing streak: ended by a success, started (or kept) by a failure, and what it leads to. */
  readonly healthy: Prepared<'webhook_uuid'>;
  readonly failing: Prepared<'webhook_uuid' | 'now_ms'>;
  readonly disable: Prepared<'webhook_uuid' | 'reason' | 'now' | 'micros'>;
  readonly cancelPending: Prepared<'webhook_uuid' | 'reason' | 'now'>;

  /** Moves the due times of deliveries not yet due by a wall-clock jump (see followClockJump). */
  readonly jumpBack: Prepared<'jump' | 'after'>;
  readonly jumpForward: Prepared<'jump' | 'after'>;

  constructor(db: Db) {
    const k = db.kysely;
    this.due = prepare(
      db.sqlite,
      k
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.uuid', 'd.webhook_uuid')
        .select(['d.delivery_id', 'd.organization_uuid', 'd.webhook_uuid', 'w.url', 'w.is_active', 'w.deleted_on'])
        // Literals, not parameters: only then can SQLite use the partial index webhook_deliveries_due.
        .where('d.status', '=', sql.lit('pending'))
        .where('d.in_flight', '=', sql.lit(0))
        .where('d.next_attempt_at', '<=', param<number>('now_ms'))
        .where(sql<boolean>`d.webhook_uuid not in (select value from json_each(${param('full_webhooks')}))`)
        .where(sql<boolean>`d.organization_uuid not in (select value from json_each(${param('full_organizations')}))`)
        .orderBy('d.next_attempt_at')
        .orderBy('d.seq')
        .limit(param<number>('limit')),
    );
    this.details = prepare(
      db.sqlite,
      k
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.uuid', 'd.webhook_uuid')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .leftJoin('organization_settings as s', 's.organization_uuid', 'd.organization_uuid')
        .select([
          'd.attempt_count',
          'd.schedule_base',
          'e.id as event_id',
          'e.type as event_type',
          'e.envelope',
          'w.secret',
          's.allow_http_webhooks',
          's.webhook_retry_schedule',
          's.webhook_auto_disable_after_s',
          's.webhook_timeout_s',
          'w.retry_schedule as webhook_schedule',
          'w.sandbox_diagnostics',
        ])
        .where('d.delivery_id', '=', param('delivery_id')),
    );
    const shift = () =>
      k
        .updateTable('webhook_deliveries')
        .set((eb) => ({ next_attempt_at: eb('next_attempt_at', '+', param<number>('jump')) }))
        .where('status', '=', sql.lit('pending'))
        .where('in_flight', '=', sql.lit(0))
        .where('next_attempt_at', '>', param<number>('after'));
    this.jumpBack = prepare(db.sqlite, shift());
    // Only retries: a delivery queued or redelivered since the jump is due at once, on the new wall clock.
    this.jumpForward = prepare(db.sqlite, shift().where(sql<boolean>`attempt_count > schedule_base`));
    this.claim = prepare(
      db.sqlite,
      k
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          in_flight: sql.lit(1),
          attempt_count: eb('attempt_count', '+', sql.lit(1)),
          claimed_on: param('now'),
          updated_on: param('now'),
        }))
        .where('delivery_id', '=', param('delivery_id')),
    );
    this.stop = prepare(
      db.sqlite,
      k
        .updateTable('webhook_deliveries')
        .set({ status: sql.lit('failed'), status_reason: param('reason'), next_attempt_at: sql.lit(null), updated_on: param('now') })
        .where('delivery_id', '=', param('delivery_id')),
    );
    this.nextDue = prepare(
      db.sqlite,
      k
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.min('next_attempt_at').as('next'))
        .where('status', '=', sql.lit('pending'))
        .where('in_flight', '=', sql.lit(0)),
    );
    this.healthy = prepare(
      db.sqlite,
      k
        .updateTable('webhooks')
        .set({ failing_since_ms: sql.lit(null) })
        .where('uuid', '=', param('webhook_uuid'))
        .where('failing_since_ms', 'is not', sql.lit(null)),
    );
    this.failing = prepare(
      db.sqlite,
      k
        .updateTable('webhooks')
        .set({ failing_since_ms: sql<number>`coalesce(failing_since_ms, ${param<number>('now_ms')})` })
        .where('uuid', '=', param('webhook_uuid'))
        .returning(['failing_since_ms', 'is_active']),
    );
    this.disable = prepare(
      db.sqlite,
      k
        .updateTable('webhooks')
        .set({ is_active: sql.lit(0), disabled_reason: param('reason'), disabled_on: param('now'), updated_on: param('micros') })
        .where('uuid', '=', param('webhook_uuid'))
        .where('is_active', '=', sql.lit(1)),
    );
    this.cancelPending = prepare(
      db.sqlite,
      k
        .updateTable('webhook_deliveries')
        .set({ status: sql.lit('failed'), status_reason: param('reason'), next_attempt_at: sql.lit(null), updated_on: param('now') })
        .where('webhook_uuid', '=', param('webhook_uuid'))
        .where('status', '=', sql.lit('pending'))
        .where('in_flight', '=', sql.lit(0)),
    );
    this.attempt = prepare(
      db.sqlite,
      k.insertInto('webhook_delivery_attempts').values({
        delivery_id: param('delivery_id'),
        attempt: param<number>('attempt'),
        attempted_on: param('attempted_on'),
        status_code: param<number | null>('status_code'),
        duration_ms: param<number | null>('duration_ms'),
        error: param<string | null>('error'),
        response_excerpt: param<string | null>('response_excerpt'),
        response_headers: param<string | null>('response_headers'),
        response_body: param<string | null>('response_body'),
        response_body_truncated: param<number>('response_body_truncated'),
        request_headers: param<string | null>('request_headers'),
        request_body: param<string | null>('request_body'),
      }),
    );
    this.after = prepare(
      db.sqlite,
      k
        .updateTable('webhook_deliveries')
        .set({
          in_flight: sql.lit(0),
          claimed_on: sql.lit(null),
          status: param<DeliveryAfterAttempt['status']>('status'),
          next_attempt_at: param<number | null>('next_attempt_at'),
          status_reason: param<string | null>('status_reason'),
          updated_on: param('now'),
        })
        .where('delivery_id', '=', param('delivery_id'))
        // A snapshot restored meanwhile brought the delivery back as it was then, not in flight: not this attempt's.
        .where('in_flight', '=', sql.lit(1)),
    );
  }
}

type AttemptParam = Exclude<keyof WebhookDeliveryAttemptTable, 'seq'>;

interface DueRow {
  delivery_id: string;
  organization_uuid: string;
  webhook_uuid: string;
  url: string;
  is_active: number;
  deleted_on: string | null;
}

interface DueDetails {
  attempt_count: number;
  schedule_base: number;
  event_id: string;
  event_type: string;
  envelope: string;
  secret: string;
  allow_http_webhooks: number | null;
  webhook_retry_schedule: RetryScheduleName | null;
  webhook_auto_disable_after_s: number | null;
  webhook_timeout_s: number | null;
  webhook_schedule: string | null;
  sandbox_diagnostics: number;
}

const statementsOf = perDatabase((db) => new DispatchStatements(db));

/** Whether a delivery is due (one index entry says so; the due query would sort them all). */
function isDue(s: DispatchStatements, nowMs: number): boolean {
  const next = s.nextDue.get<{ next: number | null }>({})?.next ?? null;
  return next !== null && next <= nowMs;
}

/**
 * Claims due deliveries, inside the caller's transaction: as many as `plan` gives slots to, in its
 * fair order. Each is marked in flight with its new attempt number and start time, so a crash during
 * the send is found and logged by recovery. Deliveries whose webhook was deactivated or deleted
 * meanwhile fail instead. When the oldest due deliveries include ones without a free slot and slots
 * are left, it looks again past them (their webhooks and organizations left out), as often as
 * LOOK_PAST_COST_FACTOR allows.
 */
function claimIn(s: DispatchStatements, plan: SlotPlan, nowMs: number, now: string): ClaimedAttempt[] {
  if (!isDue(s, nowMs)) return [];
  const live: { row: DueRow; details: DueDetails }[] = [];
  for (let look = 0; plan.free() > 0; look++) {
    const past = look > 0;
    const started = performance.now();
    if (past && started < s.lookPast.at) {
      s.lookPast.putOff = true;
      break;
    }
    const window = Math.max(MIN_DUE_WINDOW, plan.free() * 4);
    const due = s.due.all<DueRow>({
      now_ms: nowMs,
      limit: window,
      full_webhooks: past ? JSON.stringify(plan.fullWebhooks()) : '[]',
      full_organizations: past ? JSON.stringify(plan.fullOrganizations()) : '[]',
    });
    if (past) {
      const took = performance.now() - started;
      s.lookPast.at = started + took * (1 + LOOK_PAST_COST_FACTOR);
      s.lookPast.putOff = false;
    }
    const usable: DueRow[] = [];
    for (const row of due) {
      if (row.is_active === 1 && row.deleted_on === null) {
        usable.push(row);
        continue;
      }
      s.stop.run({
        delivery_id: row.delivery_id,
        reason: row.deleted_on !== null ? 'The webhook was deleted.' : 'The webhook is inactive.',
        now,
      });
    }
    const picked = plan.pick(usable);
    for (const row of picked) {
      const details = s.details.get<DueDetails>({ delivery_id: row.delivery_id });
      if (!details) continue;
      s.claim.run({ delivery_id: row.delivery_id, now });
      live.push({ row, details });
    }
    // Every row not picked has a full webhook, host or organization, left out of the next look.
    if (due.length < window || picked.length === usable.length) break;
  }
  return live.map(({ row, details }) => ({
    delivery_id: row.delivery_id,
    attempt: details.attempt_count + 1,
    attempted_on: now,
    schedule_base: details.schedule_base,
    event_id: details.event_id,
    event_type: details.event_type,
    envelope: details.envelope,
    organization_uuid: row.organization_uuid,
    webhook_uuid: row.webhook_uuid,
    url: row.url,
    secret: details.secret,
    allow_http: details.allow_http_webhooks === 1,
    retry_schedule: parseWebhookSchedule(details.webhook_schedule) ?? details.webhook_retry_schedule ?? null,
    auto_disable_after_ms: (details.webhook_auto_disable_after_s ?? DEFAULT_AUTO_DISABLE_AFTER_S) * 1000,
    timeout_s: details.webhook_timeout_s,
    diagnostics: details.sandbox_diagnostics === 1,
  }));
}

/**
 * Claims due deliveries in one transaction (see claimIn). `plan` is made when the transaction runs.
 * Nothing due: no transaction, so no wait for an import's write lock.
 */
export async function claimDueDeliveries(
  db: Db,
  plan: () => SlotPlan,
  nowMs: Now,
  now: string,
  claimed?: (claims: ClaimedAttempt[]) => void,
): Promise<ClaimedAttempt[]> {
  const s = statementsOf(db);
  const open = outsideTransaction(db);
  if (open !== undefined) await open;
  if (plan().free() <= 0 || !isDue(s, nowMs())) return [];
  return writeNow(
    db,
    () => {
      const at = plan();
      return at.free() > 0 ? claimIn(s, at, nowMs(), now) : [];
    },
    claimed,
  );
}

/** Records finished attempts and their deliveries' next states (inside the caller's transaction). */
function finishIn(s: DispatchStatements, finished: FinishedAttempt[], nowMs: number, now: string): void {
  for (const item of finished) {
    const { claim, outcome, next } = item;
    item.next_attempt_at = next.retry_in_ms === null ? null : nowMs + next.retry_in_ms;
    const after = {
      delivery_id: claim.delivery_id,
      status: next.status,
      next_attempt_at: item.next_attempt_at,
      status_reason: next.status_reason,
      now,
    };
    // A reset (of the demo data, or --empty) may have deleted a delivery while its attempt was in flight, or a
    // snapshot's restore replaced it: nothing to record for it (the delivery's update changes no row; no separate look for it).
    if (s.after.run(after).changes === 0) continue;
    s.attempt.run({
      delivery_id: claim.delivery_id,
      attempt: claim.attempt,
      attempted_on: claim.attempted_on,
      ...outcome,
      response_body_truncated: outcome.response_body_truncated ? 1 : 0,
    });
    if (item.webhook_health === 'succeeded') s.healthy.run({ webhook_uuid: claim.webhook_uuid });
    if (item.webhook_health === 'failed') trackFailure(s, item, nowMs, now);
  }
}

/** A failed attempt starts or continues the webhook's failing streak; one as long as the organization allows disables it. */
function trackFailure(s: DispatchStatements, item: FinishedAttempt, nowMs: number, now: string): void {
  const { webhook_uuid, auto_disable_after_ms: limitMs = 0 } = item.claim;
  const streak = s.failing.get<{ failing_since_ms: number; is_active: number }>({ webhook_uuid, now_ms: nowMs });
  if (!streak || streak.is_active !== 1 || limitMs <= 0 || nowMs - streak.failing_since_ms < limitMs) return;
  const reason =
    `Disabled automatically: every delivery attempt failed for ${describeDuration(limitMs)} ` +
    `(since ${new Date(streak.failing_since_ms).toISOString()}). Fix the endpoint, then re-enable the webhook ` +
    '(Enable again on its page in the GUI, or PATCH is_active: true); its pending deliveries were stopped, redeliver them after.';
  s.disable.run({ webhook_uuid, reason, now, micros: nowMicros() });
  s.cancelPending.run({ webhook_uuid, reason: 'The webhook was disabled automatically after failing continuously.', now });
  item.disabled_reason = reason;
}

/**
 * Records finished attempts in one transaction (group commit) and, in the same transaction, claims
 * the deliveries now due for the slots they free (`plan`, made when it runs; null: claim nothing).
 */
export async function finishAttempts(
  db: Db,
  finished: FinishedAttempt[],
  nowMs: Now,
  now: string,
  claim?: { plan: () => SlotPlan | null; claimed: (claims: ClaimedAttempt[]) => void },
): Promise<ClaimedAttempt[]> {
  const s = statementsOf(db);
  return writeNow(
    db,
    () => {
      const at = nowMs();
      finishIn(s, finished, at, now);
      const plan = claim?.plan();
      return plan && plan.free() > 0 ? claimIn(s, plan, at, now) : [];
    },
    claim?.claimed,
  );
}

/**
 * After the wall clock jumped while the app ran (`clock.jump()`), moves the due times of the
 * deliveries not yet due by the jump and sets the clock to the wall clock again, in one
 * transaction: their waits, counted on the monotonic clock, neither stretch nor end at once, and
 * the stored times (shown, and read after a restart) are wall-clock times again. Returns the jump.
 */
export function followClockJump(db: Db, clock: DeliveryClock): Promise<number> {
  const s = statementsOf(db);
  return writeNow(db, () => {
    const jump = clock.jump();
    if (jump < 0) s.jumpBack.run({ jump, after: clock.now() + jump });
    else if (jump > 0) s.jumpForward.run({ jump, after: clock.now() });
    clock.rebase();
    return jump;
  });
}

export const INTERRUPTED_ERROR = 'Interrupted: the app stopped during this attempt; the delivery is sent again with the same delivery id.';

/**
 * After a crash: attempts that were in flight are logged as interrupted and their deliveries are
 * due at once. Their receivers may have got them; the stable delivery id lets them de-duplicate.
 */
export async function recoverInterruptedDeliveries(db: Kysely<Database>, nowMs: number, now: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // A literal 1: the partial index webhook_deliveries_in_flight serves only that.
    const interrupted = await trx
      .selectFrom('webhook_deliveries')
      .select(['delivery_id', 'attempt_count', 'claimed_on'])
      .where('in_flight', '=', sql.lit(1))
      .execute();
    if (interrupted.length === 0) return 0;
    for (const row of interrupted) {
      await trx
        .insertInto('webhook_delivery_attempts')
        .values({
          delivery_id: row.delivery_id,
          attempt: row.attempt_count,
          attempted_on: row.claimed_on ?? now,
          status_code: null,
          duration_ms: null,
          error: INTERRUPTED_ERROR,
          response_excerpt: null,
        })
        .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
        .execute();
    }
    await trx
      .updateTable('webhook_deliveries')
      .set({ in_flight: 0, claimed_on: null, next_attempt_at: nowMs, updated_on: now })
      .where('in_flight', '=', sql.lit(1))
      .execute();
    return interrupted.length;
  });
}

/** Ms until a look past the deliveries without a free slot that was put off may run, or null when none was. */
export function lookPastWaitMs(db: Db): number | null {
  const { lookPast } = statementsOf(db);
  return lookPast.putOff ? Math.max(0, lookPast.at - performance.now()) : null;
}

/** Epoch ms of the earliest pending delivery that is not in flight, or null. */
export function nextDueAt(db: Db): number | null {
  return statementsOf(db).nextDue.get<{ next: number | null }>({})?.next ?? null;
}
