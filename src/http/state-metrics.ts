// Metrics read from the database when Prometheus scrapes: keys close to expiry per store, and
// the webhook delivery backlog. Every process of a fleet reports the same values (aggregate
// them with max(), not sum(); deploy/alerts.yml does). Webhook attempts are counted as this
// process's worker records them.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../context.js';
import { EXPIRY_WARNING_DAYS, keysExpiringByStore } from '../modules/keys/index.js';
import { deliveryBacklog, type AttemptOutcome } from '../modules/webhooks/index.js';

export function registerStateMetrics(ctx: AppContext, registers: Registry[]): () => void {
  const now = () => ctx.clock.now().getTime();

  // The one metric with a store label: the handle of a store that has a key expiring soon (no
  // key id). Only such stores appear, so the series stay few; a store whose keys were renewed
  // drops out at the next scrape.
  new Gauge({
    name: 'blog_api_keys_expiring',
    help: `Active API keys that expire within ${EXPIRY_WARNING_DAYS} days, per store handle`,
    labelNames: ['store'],
    registers,
    async collect() {
      const byStore = await keysExpiringByStore(ctx.db, now());
      this.reset();
      for (const [store, keys] of byStore) this.set({ store }, keys);
    },
  });

  // One small query each (the partial index of pending deliveries serves it).
  const readBacklog = () => deliveryBacklog(ctx.db, now());
  new Gauge({
    name: 'blog_api_webhook_deliveries_due',
    help: 'Webhook deliveries due for an attempt and not yet sent (the backlog)',
    registers,
    async collect() {
      this.set((await readBacklog()).due);
    },
  });
  new Gauge({
    name: 'blog_api_webhook_oldest_due_seconds',
    help: 'How long the oldest due webhook delivery has waited; 0 when none is due',
    registers,
    async collect() {
      this.set((await readBacklog()).oldestDueSeconds);
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
