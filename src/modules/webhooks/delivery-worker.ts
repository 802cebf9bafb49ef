// Sends pending deliveries. Every poll (once a second: a periodic job, src/context.ts) it records the `post.published` events of
// scheduled posts that became due, releases held deliveries of stores whose queue has room
// (delivery-queue.ts), then claims due deliveries up to its free sending slots, fairly across
// stores and endpoints (delivery-claim.ts), and sends them. A claim is a lease: the delivery carries the claimer's token and an expiry, so a
// process that dies between claim and answer only delays the delivery until the lease expires,
// when any instance claims it again.
import type { Db, Engine } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { randomToken } from '../../lib/crypto.js';
import { httpSender, type Sender, type SendOutcome } from './http-sender.js';
import { DISABLE_AFTER_FAILING_MS, nextAttemptAt, RETRY_WINDOW_MS } from './retry-schedule.js';
import { finishAttempt, startAttempt } from './attempt-log.js';
import { signatureHeader } from './signature.js';
import { checkTarget, systemResolver, targetRules, type Resolver, type TargetRules } from './target-check.js';
import { claimFairly } from './delivery-claim.js';
import { recordAttemptForCircuit } from './circuit-breaker.js';
import { releaseHeld } from '../events/index.js';
import { systemTimers } from '../../lib/timers.js';

export const POLL_INTERVAL_MS = 1000;
/** Longer than an attempt can take (DNS, then the 10-second send), so a live claim never expires. */
export const LEASE_MS = 60_000;
/** Deliveries in flight at once per process (each store and endpoint has its own cap too: delivery-claim.ts). */
export const SEND_CONCURRENCY = 16;

export interface WorkerLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface WebhookWorkerOptions {
  allowPrivateTargets: boolean;
  /** WEBHOOK_ALLOWED_PORTS (null: any); unset: see targetRules. */
  allowedPorts?: readonly number[] | null;
  concurrency?: number;
  leaseMs?: number;
  random?: () => number;
  resolver?: Resolver;
  sender?: Sender;
  /**
   * Runs at the start of every poll, before deliveries are claimed: the app records the events
   * that time alone makes due (a scheduled post's `post.published`, src/modules/posts/schedule-scan.ts),
   * so a poll that finds them due sends them. Given by the app, since posts sit above webhooks.
   */
  beforePoll?: (now: number) => Promise<unknown>;
}

interface Claimed {
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  created_at: number;
  lease_token: string | null;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  body: string;
}

const quietLog: WorkerLog = { warn: () => undefined };

/** How one attempt ended: delivered, to be retried, or given up (the delivery is `failed`). */
export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed';

export class WebhookWorker {
  private readonly inFlight = new Set<Promise<void>>();
  /** Told of every recorded attempt (the metrics count them); see onAttempt(). */
  private readonly attemptListeners = new Set<(outcome: AttemptOutcome) => void>();
  private running = false;
  private log: WorkerLog = quietLog;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly random: () => number;
  private readonly resolver: Resolver;
  private readonly sender: Sender;
  private readonly targets: TargetRules;
  /** The store served first by the last claim: the next claim's turns start after it. */
  private lastFirstStore: number | null = null;

  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
    private readonly clock: Clock,
    private readonly options: WebhookWorkerOptions,
  ) {
    this.concurrency = options.concurrency ?? SEND_CONCURRENCY;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.random = options.random ?? Math.random;
    this.resolver = options.resolver ?? systemResolver;
    this.sender = options.sender ?? httpSender(systemTimers);
    this.targets = targetRules(options.allowPrivateTargets, options.allowedPorts);
  }

  /**
   * The server's worker: from now until stop(), each finished attempt claims again at once (see
   * fill()) and problems go to `log`. The polls themselves are a periodic job (src/context.ts).
   */
  start(log: WorkerLog = quietLog): void {
    if (this.running) return;
    this.running = true;
    this.log = log;
  }

  /** Calls `listener` after each attempt this worker records; returns the function that stops it. */
  onAttempt(listener: (outcome: AttemptOutcome) => void): () => void {
    this.attemptListeners.add(listener);
    return () => this.attemptListeners.delete(listener);
  }

  /** Stops claiming and waits for the deliveries in flight (stop the poll job first). */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all([...this.inFlight]);
  }

  /**
   * Polls until nothing due is left, waiting for every delivery it started to have its outcome
   * recorded (tests drive the worker with this and the injected clock).
   */
  async runOnce(): Promise<void> {
    await this.options.beforePoll?.(this.clock.now().getTime());
    await releaseHeld(this.db, this.clock.now().getTime());
    while ((await this.fill()) > 0) await Promise.all([...this.inFlight]);
    await Promise.all([...this.inFlight]);
  }

  /** Resolves once every attempt started so far has its outcome recorded. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /**
   * One poll, without waiting for the attempts it started; resolves with how many it started.
   * Tests use it to see what a poll claims while receivers hang.
   */
  async pollOnce(): Promise<number> {
    await this.options.beforePoll?.(this.clock.now().getTime());
    await releaseHeld(this.db, this.clock.now().getTime());
    return this.fill();
  }

  /**
   * Claims up to `limit` due deliveries for LEASE_MS and returns their ids. Exposed so a test
   * can stand in for an instance that claims and then dies.
   */
  async claim(limit: number): Promise<string[]> {
    return (await this.claimRows(limit)).map((c) => c.id);
  }

  /**
   * Claims due deliveries for the free sending slots and starts them; returns how many. While
   * the worker runs, each finished attempt claims again at once (it freed a slot, and a place
   * under its store's and endpoint's caps), so a backlog drains at the receivers' pace rather
   * than one batch per poll.
   */
  private async fill(): Promise<number> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return 0;
    const claimed = await this.claimRows(free);
    const full = claimed.length > 0;
    for (const delivery of claimed) {
      const attempt: Promise<void> = this.attempt(delivery)
        .catch((err) =>
          this.log.warn(
            { err, delivery_id: delivery.id },
            'webhook delivery could not be recorded; it is tried again when its claim expires',
          ),
        )
        .finally(() => {
          this.inFlight.delete(attempt);
          if (full && this.running)
            void this.fill().catch((err) =>
              this.log.warn({ err }, 'webhook claim failed; trying again at the next poll'),
            );
        });
      this.inFlight.add(attempt);
    }
    return claimed.length;
  }

  private async claimRows(limit: number): Promise<Claimed[]> {
    const now = this.clock.now().getTime();
    const token = randomToken(16);
    const { ids, first } = await claimFairly(this.db, this.engine, {
      now,
      limit,
      token,
      leaseUntil: now + this.leaseMs,
      after: this.lastFirstStore,
    });
    if (first !== null) this.lastFirstStore = first;
    const claimed = ids.map((id) => ({ id }));
    if (claimed.length === 0) return [];
    return this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
      .select([
        'd.id',
        'd.endpoint_id',
        'd.event_id',
        'd.attempts',
        'd.created_at',
        'd.lease_token',
        'e.url',
        'e.secret',
        'e.previous_secret',
        'e.previous_secret_until',
        'ev.body',
      ])
      .where(
        'd.id',
        'in',
        claimed.map((c) => c.id),
      )
      .where('d.lease_token', '=', token)
      .execute();
  }

  private async attempt(d: Claimed): Promise<void> {
    const startedAt = this.clock.now().getTime();
    const started = performance.now();
    const log = await startAttempt(this.db, d.id, d.lease_token!, startedAt);
    let outcome: SendOutcome;
    if (startedAt > d.created_at + RETRY_WINDOW_MS) {
      outcome = { status: null, error: 'retry window over' };
    } else {
      // Checked again now: the host may resolve elsewhere than when the endpoint was saved.
      const check = await checkTarget(d.url, this.targets, this.resolver);
      if (!check.ok) {
        outcome = { status: null, error: `target refused: ${check.problem}` };
      } else {
        const timestamp = Math.floor(this.clock.now().getTime() / 1000);
        const secrets =
          d.previous_secret && (d.previous_secret_until ?? 0) > startedAt ? [d.secret, d.previous_secret] : [d.secret];
        outcome = await this.sender(
          check.target,
          {
            'content-type': 'application/json',
            'user-agent': 'store-blog-content-api-webhooks/1',
            'webhook-id': d.event_id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureHeader(secrets, d.event_id, timestamp, d.body),
            'x-store-handle': log.handle,
            ...(log.sequence !== null ? { 'x-event-sequence': String(log.sequence) } : {}),
          },
          d.body,
        );
      }
    }
    await this.record(d, startedAt, outcome, { id: log.id, durationMs: performance.now() - started });
  }

  private async record(
    d: Claimed,
    attemptedAt: number,
    outcome: SendOutcome,
    attempt: { id: string; durationMs: number },
  ): Promise<void> {
    const now = this.clock.now().getTime();
    const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const attempts = d.attempts + 1;
    const next = succeeded ? null : nextAttemptAt(attempts, d.created_at, now, this.random);
    const status = succeeded ? 'succeeded' : next === null ? 'failed' : 'pending';
    if (!succeeded) {
      this.log.warn(
        {
          delivery_id: d.id,
          endpoint_id: d.endpoint_id,
          response_status: outcome.status,
          error: outcome.error,
          attempts,
          status,
        },
        'webhook attempt failed',
      );
    }
    // Set inside the transaction's callback, hence the widened type after it.
    let recorded = null as AttemptOutcome | null;
    await this.db.transaction().execute(async (trx) => {
      await finishAttempt(trx, attempt.id, outcome, attempt.durationMs);
      // Only while this claim still holds: a late answer after the lease expired must not
      // overwrite the outcome of the instance that took the delivery over.
      const updated = await trx
        .updateTable('webhook_deliveries')
        .set({
          status,
          attempts,
          last_attempt_at: attemptedAt,
          last_response_status: outcome.status,
          next_attempt_at: next,
          lease_token: null,
          lease_until: null,
        })
        .where('id', '=', d.id)
        .where('lease_token', '=', d.lease_token)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return;
      await recordAttemptForCircuit(trx, d.endpoint_id, outcome.timedOut === true, now);
      recorded = status === 'succeeded' ? 'succeeded' : status === 'failed' ? 'failed' : 'retrying';
      if (succeeded) {
        await trx
          .updateTable('webhook_endpoints')
          .set({ failing_since: null })
          .where('id', '=', d.endpoint_id)
          .where('failing_since', 'is not', null)
          .execute();
        return;
      }
      await trx
        .updateTable('webhook_endpoints')
        .set({ failing_since: attemptedAt })
        .where('id', '=', d.endpoint_id)
        .where('failing_since', 'is', null)
        .execute();
      await disableIfFailingTooLong(trx, d.endpoint_id, now);
      // A disabled endpoint gets no more retries (this may be a test event sent to one), nor
      // does any endpoint of a store whose webhooks were switched off.
      const endpoint = await trx
        .selectFrom('webhook_endpoints as e')
        .innerJoin('stores as s', 's.id', 'e.store_id')
        .select(['e.enabled', 's.webhooks_enabled'])
        .where('e.id', '=', d.endpoint_id)
        .executeTakeFirst();
      if (status === 'pending' && (endpoint?.enabled !== 1 || endpoint.webhooks_enabled !== 1)) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', next_attempt_at: null })
          .where('id', '=', d.id)
          .execute();
        recorded = 'failed';
      }
    });
    // After the commit, and only for the claim that held: each attempt is counted once in the fleet.
    if (recorded !== null) for (const listener of this.attemptListeners) listener(recorded);
  }
}

/** An endpoint whose every attempt has failed for DISABLE_AFTER_FAILING_MS is disabled, and its waiting deliveries fail. */
async function disableIfFailingTooLong(trx: Db, endpointId: string, now: number): Promise<void> {
  const reason = 'every delivery attempt failed for 5 days; fix the receiver, then set enabled to true';
  const disabled = await trx
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: reason, updated_at: now })
    .where('id', '=', endpointId)
    .where('enabled', '=', 1)
    .where('failing_since', '<=', now - DISABLE_AFTER_FAILING_MS)
    .executeTakeFirst();
  if (Number(disabled.numUpdatedRows) === 1) await failWaitingDeliveries(trx, endpointId);
}

/**
 * A disabled endpoint receives nothing more: its waiting deliveries fail now (one in flight
 * records its own outcome, and fails too unless it succeeds).
 */
export async function failWaitingDeliveries(trx: Db, endpointId: string): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}
