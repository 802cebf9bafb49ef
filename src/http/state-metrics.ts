// Metrics read from the database when Prometheus scrapes: keys close to expiry, and
// the webhook delivery backlog. Every process of a fleet reports the same values (aggregate
// them with max(), not sum(); deploy/alerts.yml does). Webhook attempts are counted as this
// process's worker records them.
//
// A scrape never waits for the database: when every pooled connection is taken (the moment the
// pool metrics matter most) or a read takes longer than READ_BOUND_MS, the scrape reports the
// values last read.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../context.js';
import { countKeysExpiring, EXPIRY_WARNING_DAYS } from '../modules/keys/index.js';
import { deliveryBacklog, type AttemptOutcome, type DeliveryBacklog } from '../modules/webhooks/index.js';

const READ_BOUND_MS = 1000;

export function registerStateMetrics(ctx: AppContext, registers: Registry[]): () => void {
  const now = () => ctx.clock.now().getTime();
  // Every connection busy (pg counts a connection being opened as waiting, so that is not the sign).
  const poolFull = () => {
    const usage = ctx.poolUsage();
    return usage !== null && usage.inUse >= ctx.config.ops.databasePoolMax;
  };
  /** The fresh value when it comes in time, else the last one (a late read still updates it). */
  const fresh = <T>(read: () => Promise<T>, last: { value: T }): Promise<T> => {
    if (poolFull()) return Promise.resolve(last.value);
    const reading = read().then((value) => (last.value = value));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(last.value), READ_BOUND_MS);
      timer.unref();
    });
    return Promise.race([reading.catch(() => last.value), late]).finally(() => clearTimeout(timer));
  };

  // One number for all stores: no label names a store, a key or a post (docs/operations.md,
  // "Labels are bounded"); `blog-api key list --expiring` names the stores and keys.
  const expiring = { value: 0 };
  new Gauge({
    name: 'blog_api_keys_expiring',
    help: `Active API keys that expire within ${EXPIRY_WARNING_DAYS} days, in all stores (blog-api key list --expiring names them)`,
    registers,
    async collect() {
      this.set(await fresh(() => countKeysExpiring(ctx.db, now()), expiring));
    },
  });

  // One small query each (the partial index of pending deliveries serves it).
  const backlog = { value: { due: 0, oldestDueSeconds: 0 } as DeliveryBacklog };
  new Gauge({
    name: 'blog_api_webhook_deliveries_due',
    help: 'Webhook deliveries due for an attempt and not yet sent (the backlog)',
    registers,
    async collect() {
      this.set((await fresh(() => deliveryBacklog(ctx.db, now()), backlog)).due);
    },
  });
  new Gauge({
    name: 'blog_api_webhook_oldest_due_seconds',
    help: 'How long the oldest due webhook delivery has waited; 0 when none is due',
    registers,
    async collect() {
      this.set((await fresh(() => deliveryBacklog(ctx.db, now()), backlog)).oldestDueSeconds);
    },
  });

  const attempts = new Counter({
    name: 'blog_api_webhook_attempts_total',
    help: 'Webhook delivery attempts recorded by this process, by outcome (succeeded, retrying, failed = given up)',
    labelNames: ['outcome'],
    registers,
  });
  for (const outcome of ['succeeded', 'retrying', 'failed'] as const) attempts.inc({ outcome }, 0);
  return ctx.webhookWorker.onAttempt((outcome: AttemptOutcome) => attempts.inc({ outcome }));
}
