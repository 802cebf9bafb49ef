// Webhook endpoints of a store and their deliveries (issue: signed webhooks). Every change is
// audited in its own transaction; the secret leaves the service only in the create and rotate
// answers.
import { groupedNames } from '../../lib/name-list.js';
import { DAY_MS } from '../../lib/time.js';
import type { Db } from '../../db/database.js';
import { ApiError, detail, type ErrorDetail } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { randomLowerAlnum } from '../../lib/crypto.js';
import type { CursorCodec } from '../../lib/cursor.js';
import { formatNullable, formatWithOffset } from '../../lib/time.js';
import { recordAudit, type Actor } from '../audit/index.js';
import type { Store } from '../stores/index.js';
import { failWaitingDeliveries } from './delivery-worker.js';
import { insertEndpointEvent } from '../events/index.js';
import { ALL_EVENTS, isEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../events/index.js';
import { newSigningSecret } from './signature.js';
import {
  countEndpointsLocked,
  deleteEndpoint,
  findDelivery,
  findEndpoint,
  findStoreHandle,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  updateEndpoint,
  type EndpointRow,
} from './webhook-repository.js';
import {
  checkTarget,
  normaliseUrl,
  systemResolver,
  targetRules,
  type Resolver,
  type TargetRules,
} from './target-check.js';
import {
  ENDPOINTS_PER_STORE,
  type CreateWebhookInput,
  type DeliveryListQueryInput,
  type DeliveryView,
  type UpdateWebhookInput,
  type WebhookEndpointView,
} from './webhook-schemas.js';

/** After a rotation the old secret keeps signing beside the new one this long. */
export const ROTATION_OVERLAP_MS = DAY_MS;
const DELIVERY_CURSOR_SCOPE = 'webhook-deliveries';

export const newEndpointId = () => `wh_${randomLowerAlnum(24)}`;

export function presentEndpoint(row: EndpointRow, offset: string): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    circuit_open_until: formatNullable(row.circuit_open_until, offset),
    created_at: formatWithOffset(row.created_at, offset),
    updated_at: formatWithOffset(row.updated_at, offset),
  };
}

/** Problems with an `events` list: each a known type, or "*" alone. */
function eventProblems(events: string[]): ErrorDetail[] {
  if (events.includes(ALL_EVENTS)) {
    return events.length === 1
      ? []
      : [detail('events', `"${ALL_EVENTS}" stands for every event type and must be the only item`)];
  }
  return events.flatMap((e, i) =>
    isEventType(e)
      ? []
      : [
          detail(
            `events[${i}]`,
            `is not an event type; use one of ${groupedNames(WEBHOOK_EVENT_TYPES)}, or "${ALL_EVENTS}"`,
          ),
        ],
  );
}

export interface WebhookServiceOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: http and private addresses allowed (development and tests only). */
  allowPrivateTargets: boolean;
  /** WEBHOOK_ALLOWED_PORTS (null: any); unset: see targetRules. */
  allowedPorts?: readonly number[] | null;
  resolver?: Resolver;
  /**
   * The data of a sample event of a content type: the store's newest resource of that kind as
   * the real event would carry it, or null when the store has none. Given by the app (it reads
   * posts, categories and images, which sit above this module).
   */
  sampleData?: (store: Store, type: ContentEventType) => Promise<unknown>;
}

/** A content event type: every event type but `webhook.test`. */
export type ContentEventType = Exclude<WebhookEventType, 'webhook.test'>;

export class WebhookService {
  private readonly resolver: Resolver;
  private readonly targets: TargetRules;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly cursors: CursorCodec,
    private readonly options: WebhookServiceOptions,
  ) {
    this.resolver = options.resolver ?? systemResolver;
    this.targets = targetRules(options.allowPrivateTargets, options.allowedPorts);
  }

  async list(store: Store): Promise<{ data: WebhookEndpointView[] }> {
    const rows = await listEndpoints(this.db, store.id);
    return { data: rows.map((r) => presentEndpoint(r, store.utcOffset)) };
  }

  async get(store: Store, id: string): Promise<WebhookEndpointView> {
    return presentEndpoint(await this.require(this.db, store, id), store.utcOffset);
  }

  async create(
    store: Store,
    input: CreateWebhookInput,
    actor: Actor,
  ): Promise<WebhookEndpointView & { secret: string }> {
    const problems = eventProblems(input.events);
    if (problems.length > 0) throw new ApiError('validation_failed', problems);
    const url = await this.checkUrl(input.url);
    const now = this.clock.now().getTime();
    const row: EndpointRow = {
      id: newEndpointId(),
      store_id: store.id,
      url,
      events: JSON.stringify(input.events),
      description: input.description ?? null,
      enabled: 1,
      disabled_reason: null,
      secret: newSigningSecret(),
      previous_secret: null,
      previous_secret_until: null,
      failing_since: null,
      consecutive_timeouts: 0,
      circuit_open_until: null,
      created_at: now,
      updated_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      // Concurrent creates of one store queue on its row, so the limit holds across instances.
      const count = await countEndpointsLocked(trx, store.id);
      if (count >= ENDPOINTS_PER_STORE) {
        throw new ApiError('validation_failed', [
          detail('url', `a store has at most ${ENDPOINTS_PER_STORE} webhook endpoints; delete one first`),
        ]);
      }
      await insertEndpoint(trx, row);
      const changes = ['url', 'events', ...(input.description !== undefined ? ['description'] : [])];
      await recordAudit(trx, actor, {
        action: 'webhook.created',
        resourceType: 'webhook',
        resourceId: row.id,
        changes,
        at: now,
      });
    });
    return { ...presentEndpoint(row, store.utcOffset), secret: row.secret };
  }

  async update(store: Store, id: string, input: UpdateWebhookInput, actor: Actor): Promise<WebhookEndpointView> {
    await this.require(this.db, store, id);
    if (input.events !== undefined) {
      const problems = eventProblems(input.events);
      if (problems.length > 0) throw new ApiError('validation_failed', problems);
    }
    const url = input.url !== undefined ? await this.checkUrl(input.url) : undefined;
    const now = this.clock.now().getTime();
    const row = await this.db.transaction().execute(async (trx) => {
      const updated = await updateEndpoint(trx, store.id, id, {
        ...(url !== undefined ? { url } : {}),
        ...(input.events !== undefined ? { events: JSON.stringify(input.events) } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        // Enabling starts afresh; disabling by hand leaves no reason (the reason is the service's).
        ...(input.enabled !== undefined
          ? { enabled: input.enabled ? 1 : 0, disabled_reason: null, failing_since: null }
          : {}),
        updated_at: now,
      });
      if (!updated) throw new ApiError('not_found');
      if (input.enabled === false) await failWaitingDeliveries(trx, id);
      await recordAudit(trx, actor, {
        action: 'webhook.updated',
        resourceType: 'webhook',
        resourceId: id,
        changes: Object.keys(input).sort(),
        at: now,
      });
      return updated;
    });
    return presentEndpoint(row, store.utcOffset);
  }

  async delete(store: Store, id: string, actor: Actor): Promise<void> {
    const now = this.clock.now().getTime();
    await this.db.transaction().execute(async (trx) => {
      if (!(await deleteEndpoint(trx, store.id, id))) throw new ApiError('not_found');
      await recordAudit(trx, actor, {
        action: 'webhook.deleted',
        resourceType: 'webhook',
        resourceId: id,
        changes: [],
        at: now,
      });
    });
  }

  /** Operator CLI: disables an endpoint of any store, with the reason shown to its owner. */
  async disableByOperator(id: string): Promise<(WebhookEndpointView & { store: string }) | null> {
    const now = this.clock.now().getTime();
    return this.db.transaction().execute(async (trx) => {
      const updated = await updateEndpoint(trx, null, id, {
        enabled: 0,
        disabled_reason: 'disabled by the service operator',
        updated_at: now,
      });
      if (!updated) return null;
      await failWaitingDeliveries(trx, id);
      const store = await findStoreHandle(trx, updated.store_id);
      await recordAudit(
        trx,
        { storeId: updated.store_id, keyId: null, application: null, requestId: null },
        { action: 'webhook.updated', resourceType: 'webhook', resourceId: id, changes: ['enabled'], at: now },
      );
      return { ...presentEndpoint(updated, store.utc_offset), store: store.handle };
    });
  }

  /** A new secret; the current one keeps signing beside it for ROTATION_OVERLAP_MS. */
  async rotateSecret(store: Store, id: string, actor: Actor): Promise<WebhookEndpointView & { secret: string }> {
    const now = this.clock.now().getTime();
    const secret = newSigningSecret();
    const row = await this.db.transaction().execute(async (trx) => {
      // Locked, so that two concurrent rotations run one after the other (each keeps the
      // secret it replaces).
      const current = await this.require(trx, store, id, true);
      const updated = await updateEndpoint(trx, null, id, {
        secret,
        previous_secret: current.secret,
        previous_secret_until: now + ROTATION_OVERLAP_MS,
        updated_at: now,
      });
      if (!updated) throw new Error(`Webhook endpoint ${id} vanished while locked`);
      await recordAudit(trx, actor, {
        action: 'webhook.secret_rotated',
        resourceType: 'webhook',
        resourceId: id,
        changes: ['secret'],
        at: now,
      });
      return updated;
    });
    return { ...presentEndpoint(row, store.utcOffset), secret };
  }

  /**
   * Sends a `webhook.test` event (data: the endpoint), or a sample of a content event type (data:
   * the store's newest resource of that kind), to this endpoint alone, whatever it subscribes to.
   * Neither is in the events feed.
   */
  async sendTest(store: Store, id: string, type: WebhookEventType = 'webhook.test'): Promise<DeliveryView> {
    const now = this.clock.now().getTime();
    let sample: unknown = null;
    if (type !== 'webhook.test') {
      await this.require(this.db, store, id);
      sample = (await this.options.sampleData?.(store, type)) ?? null;
      if (sample === null) {
        const kind = type.slice(0, type.indexOf('.'));
        throw new ApiError('validation_failed', [
          detail('type', `the store has no ${kind} to show in a sample ${type} event; create one first`),
        ]);
      }
    }
    const deliveryId = await this.db.transaction().execute(async (trx) => {
      const endpoint = await this.require(trx, store, id);
      const data = type === 'webhook.test' ? presentEndpoint(endpoint, store.utcOffset) : sample;
      return insertEndpointEvent(trx, store, type, now, data, endpoint.id);
    });
    const view = await findDelivery(this.db, store.id, deliveryId, now);
    return presentDelivery(view!, store.utcOffset);
  }

  /** Newest first, cursor-paged like the post list. */
  async deliveries(
    store: Store,
    id: string,
    query: DeliveryListQueryInput,
    application: string,
  ): Promise<{ data: DeliveryView[]; meta: { next_cursor: string | null; limit: number } }> {
    await this.require(this.db, store, id);
    const limit = query.limit ?? 20;
    const conditions = {
      endpoint: id,
      status: query.status,
      event_type: query.event_type,
      since: query.since,
      until: query.until,
    };
    const holder = { storeId: store.id, application };
    const after = this.cursors.readPosition(DELIVERY_CURSOR_SCOPE, conditions, query.cursor, holder);
    const rows = await listDeliveries(this.db, {
      storeId: store.id,
      endpointId: id,
      filters: query,
      after: after ? { createdAt: Number(after[0]), id: String(after[1]) } : null,
      limit: limit + 1,
      now: this.clock.now().getTime(),
    });
    const { rows: page, nextCursor } = this.cursors.page(
      DELIVERY_CURSOR_SCOPE,
      conditions,
      rows,
      limit,
      (r) => [r.created_at, r.id],
      holder,
    );
    return { data: page.map((r) => presentDelivery(r, store.utcOffset)), meta: { next_cursor: nextCursor, limit } };
  }

  /** The URL as stored (normalised), once its form and addresses are allowed. */
  private async checkUrl(url: string): Promise<string> {
    const check = await checkTarget(url, this.targets, this.resolver);
    if (!check.ok) throw new ApiError('validation_failed', [detail('url', check.problem)]);
    return normaliseUrl(check.target.url);
  }

  /** The endpoint of this store, or 404 (another store's endpoint is indistinguishable from none). */
  private async require(db: Db, store: Store, id: string, lock = false): Promise<EndpointRow> {
    const row = await findEndpoint(db, store.id, id, lock);
    if (!row) throw new ApiError('not_found');
    return row;
  }
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_attempt_at: number | null;
  last_response_status: number | null;
  next_attempt_at: number | null;
  waiting_reason: string | null;
  created_at: number;
}

export function presentDelivery(row: DeliveryRow, offset: string): DeliveryView {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    last_attempt_at: formatNullable(row.last_attempt_at, offset),
    last_response_status: row.last_response_status,
    next_attempt_at: formatNullable(row.next_attempt_at, offset),
    waiting_reason: row.waiting_reason as DeliveryView['waiting_reason'],
    created_at: formatWithOffset(row.created_at, offset),
  };
}
