// Webhook recovery (docs/webhooks.md, "Recovery"): a delivery's attempts, a new delivery of an
// event already sent or given up on (retry), and the events of a time range queued again from the
// feed (replay), e.g. after an outage longer than the retry window. A retry or a replay is a new
// delivery of the same event: the same `webhook-id`, a fresh retry schedule.
import { sql } from 'kysely';
import type { Db, Engine } from '../../db/database.js';
import { ApiError, detail } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { formatWithOffset } from '../../lib/time.js';
import { CONTENT_ACTIONS } from '../audit/index.js';
import { counterQuery, parseTypeFilter, typeMatches } from '../events/index.js';
import type { Store } from '../stores/index.js';
import { enqueueCount, enqueueDeliveries, newDeliveryIdPrefix } from '../events/index.js';
import { subscribes } from '../events/index.js';
import {
  REPLAY_MAX_EVENTS,
  type AttemptView,
  type DeliveryDetailView,
  type ReplayInput,
  type ReplayResultView,
} from './recovery-schemas.js';
import { presentDelivery } from './webhook-service.js';
import { findEndpointDelivery } from './webhook-repository.js';
import type { DeliveryView } from './webhook-schemas.js';

export class DeliveryRecovery {
  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
    private readonly clock: Clock,
  ) {}

  /** One delivery with every attempt, oldest first. */
  async get(store: Store, endpointId: string, deliveryId: string): Promise<DeliveryDetailView> {
    const delivery = await this.delivery(this.db, store, endpointId, deliveryId);
    const attempts = await this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', '=', deliveryId)
      .orderBy('started_at')
      .orderBy('id')
      .execute();
    const now = this.clock.now().getTime();
    const claimHeld = (token: string) => delivery.lease_token === token && (delivery.lease_until ?? 0) > now;
    const history: AttemptView[] = attempts.map((a) => {
      const ok = a.response_status !== null && a.response_status >= 200 && a.response_status < 300;
      const state =
        a.finished === 1 ? (ok ? 'succeeded' : 'failed') : claimHeld(a.lease_token) ? 'in_progress' : 'interrupted';
      return {
        id: a.id,
        started_at: formatWithOffset(Number(a.started_at), store.utcOffset),
        state,
        duration_ms: a.duration_ms,
        response_status: a.response_status,
        error:
          a.finished === 1
            ? a.error
            : state === 'interrupted'
              ? 'the sending process stopped before an answer was recorded'
              : null,
        response_body: a.response_excerpt,
      };
    });
    return {
      ...presentDelivery(delivery, store.utcOffset),
      retry_of: delivery.retry_of ?? null,
      attempt_history: history,
    };
  }

  /**
   * A new delivery of the same event to the same endpoint, due now (or held while the store's
   * queue is full); the delivery must have succeeded or failed.
   */
  async retry(store: Store, endpointId: string, deliveryId: string): Promise<DeliveryView> {
    const now = this.clock.now().getTime();
    const newId = await this.db.transaction().execute(async (trx) => {
      const delivery = await this.delivery(trx, store, endpointId, deliveryId);
      await this.enabledEndpoint(trx, store, endpointId);
      if (delivery.status === 'pending') {
        throw new ApiError('delivery_not_retryable', [
          detail(
            'status',
            'pending: the delivery is still being tried (see next_attempt_at); retry it once it has succeeded or failed',
          ),
        ]);
      }
      const [created] = await enqueueDeliveries(trx, {
        storeId: store.id,
        at: now,
        idPrefix: newDeliveryIdPrefix(),
        to: { kind: 'endpoint', endpointId, eventId: delivery.event_id },
      });
      await trx.updateTable('webhook_deliveries').set({ retry_of: deliveryId }).where('id', '=', created).execute();
      return created;
    });
    return presentDelivery(await this.delivery(this.db, store, endpointId, newId), store.utcOffset);
  }

  /**
   * Queues a new delivery of every event of the feed recorded in [since, until) whose type the
   * endpoint subscribes to and `types` names, at most REPLAY_MAX_EVENTS: due now, oldest first,
   * as far as the store's queue has room, the rest held (delivery-enqueue.ts).
   */
  async replay(store: Store, endpointId: string, input: ReplayInput): Promise<ReplayResultView> {
    const now = this.clock.now().getTime();
    const since = Date.parse(input.since);
    const until = input.until === undefined ? now + 1 : Date.parse(input.until);
    if (until <= since) throw new ApiError('validation_failed', [detail('until', 'must be later than since')]);
    const filter = parseTypeFilter(input.types?.join(','));
    return this.db.transaction().execute(async (trx) => {
      const endpoint = await this.enabledEndpoint(trx, store, endpointId);
      const subscribed = JSON.parse(endpoint.events) as string[];
      const types = CONTENT_ACTIONS.filter((t) => subscribes(subscribed, t) && typeMatches(filter, t));
      if (types.length === 0) return { queued: 0, first_sequence: null, last_sequence: null };
      // The events of the store still in the feed, as `ev`.
      const matching = sql`ev.sequence > COALESCE((SELECT c.purged_through FROM (${counterQuery(this.engine, store.id)}) c), 0)
          AND ev.created_at >= ${since} AND ev.created_at < ${until} AND ev.type IN (${sql.join(types)})`;
      const { rows } = await sql<{ n: number | string; first: number | string | null; last: number | string | null }>`
        SELECT count(*) AS n, min(ev.sequence) AS first, max(ev.sequence) AS last
        FROM webhook_events ev WHERE ev.store_id = ${store.id} AND ${matching}`.execute(trx);
      const count = Number(rows[0].n);
      if (count > REPLAY_MAX_EVENTS) {
        throw new ApiError('validation_failed', [
          detail(
            'since',
            `${count} events match; a replay queues at most ${REPLAY_MAX_EVENTS}: split the time range into several replays`,
          ),
        ]);
      }
      if (count > 0) {
        await enqueueCount(trx, {
          storeId: store.id,
          at: now,
          idPrefix: newDeliveryIdPrefix(),
          to: { kind: 'replay', endpointId, events: matching },
        });
      }
      return {
        queued: count,
        first_sequence: rows[0].first === null ? null : Number(rows[0].first),
        last_sequence: rows[0].last === null ? null : Number(rows[0].last),
      };
    });
  }

  private async enabledEndpoint(db: Db, store: Store, endpointId: string) {
    const endpoint = await db
      .selectFrom('webhook_endpoints')
      .select(['id', 'enabled', 'events'])
      .where('id', '=', endpointId)
      .where('store_id', '=', store.id)
      .executeTakeFirst();
    if (!endpoint) throw new ApiError('not_found');
    if (endpoint.enabled !== 1)
      throw new ApiError('delivery_not_retryable', [
        detail('enabled', 'false: the endpoint is disabled; set enabled to true first'),
      ]);
    return endpoint;
  }

  private async delivery(db: Db, store: Store, endpointId: string, deliveryId: string) {
    const row = await findEndpointDelivery(db, store.id, endpointId, deliveryId, this.clock.now().getTime());
    if (!row) throw new ApiError('not_found');
    return row;
  }
}
