import type { components } from '../generated/openapi.js';
import { PageIterator } from '../paging.js';
import type { RequestOptions } from '../transport.js';
import type {
  Delivery,
  DeliveryDetail,
  DeliveryPage,
  DeliveryQuery,
  NewWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhookEndpointWithSecret,
  WebhookReplay,
  WebhookReplayResult,
} from '../types.js';
import type { FeedEventType } from '../event-types.js';
import { id, requestOptions, Resource } from './resource.js';

export class WebhooksApi extends Resource {
  /**
   * The answer carries the signing secret, shown only here: keep it for verifyWebhook. The
   * service takes no Idempotency-Key here, so a create whose answer was lost is not retried
   * (a resend would make a second endpoint).
   */
  async create(input: NewWebhookEndpoint, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return this.body({ method: 'POST', path: '/v1/webhooks', json: input, options: requestOptions(options) });
  }

  async list(options?: RequestOptions): Promise<WebhookEndpoint[]> {
    return (
      await this.body<components['schemas']['WebhookEndpointList']>({
        method: 'GET',
        path: '/v1/webhooks',
        options: requestOptions(options),
      })
    ).data as WebhookEndpoint[];
  }

  async get(endpointId: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.body({ method: 'GET', path: `/v1/webhooks/${id(endpointId)}`, options: requestOptions(options) });
  }

  async update(
    endpointId: string,
    changes: WebhookEndpointChanges,
    options?: RequestOptions,
  ): Promise<WebhookEndpoint> {
    return this.body({
      method: 'PATCH',
      path: `/v1/webhooks/${id(endpointId)}`,
      json: changes,
      options: requestOptions(options),
    });
  }

  async delete(endpointId: string, options?: RequestOptions): Promise<void> {
    await this.send({ method: 'DELETE', path: `/v1/webhooks/${id(endpointId)}`, options: requestOptions(options) });
  }

  /** A new secret (returned here only); the old one keeps signing beside it for 24 hours. */
  async rotateSecret(endpointId: string, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return this.body({
      method: 'POST',
      path: `/v1/webhooks/${id(endpointId)}/rotate-secret`,
      options: requestOptions(options),
    });
  }

  /** Queues a webhook.test event to this endpoint; returns its delivery. */
  async test(endpointId: string, options?: RequestOptions): Promise<Delivery> {
    return this.body({ method: 'POST', path: `/v1/webhooks/${id(endpointId)}/test`, options: requestOptions(options) });
  }

  /**
   * Queues a sample of a content event type to this endpoint alone: its data is the store's
   * newest resource of that kind as the real event carries it (a deletion: its id). It is not in
   * the events feed. Rejects with 422 when the store has no resource of that kind.
   */
  async sample(endpointId: string, type: FeedEventType, options?: RequestOptions): Promise<Delivery> {
    return this.body({
      method: 'POST',
      path: `/v1/webhooks/${id(endpointId)}/test`,
      json: { type },
      options: requestOptions(options),
    });
  }

  /** Every delivery to this endpoint, newest first, page after page. */
  deliveries(endpointId: string, query: DeliveryQuery = {}, options?: RequestOptions): PageIterator<Delivery> {
    return new PageIterator(query.cursor, (cursor) =>
      this.deliveriesPage(endpointId, { ...query, ...(cursor === undefined ? {} : { cursor }) }, options),
    );
  }

  async deliveriesPage(endpointId: string, query: DeliveryQuery = {}, options?: RequestOptions): Promise<DeliveryPage> {
    return this.body({
      method: 'GET',
      path: `/v1/webhooks/${id(endpointId)}/deliveries`,
      query,
      options: requestOptions(options),
    });
  }

  /** A delivery with its attempt_history: time, duration, status, error and the first 1 KB of each answer. */
  async getDelivery(endpointId: string, deliveryId: string, options?: RequestOptions): Promise<DeliveryDetail> {
    return this.body({
      method: 'GET',
      path: `/v1/webhooks/${id(endpointId)}/deliveries/${id(deliveryId)}`,
      options: requestOptions(options),
    });
  }

  /**
   * A new delivery of the same event (same webhook-id), due now, for a delivery that succeeded
   * or failed. Not resent when its answer is lost (a resend would queue a second delivery).
   */
  async retryDelivery(endpointId: string, deliveryId: string, options?: RequestOptions): Promise<Delivery> {
    return this.body({
      method: 'POST',
      path: `/v1/webhooks/${id(endpointId)}/deliveries/${id(deliveryId)}/retry`,
      options: requestOptions(options),
    });
  }

  /** Queues every event of the feed from `since` to `until` (default now) again, at most 10,000; not resent when its answer is lost. */
  async replay(endpointId: string, input: WebhookReplay, options?: RequestOptions): Promise<WebhookReplayResult> {
    return this.body({
      method: 'POST',
      path: `/v1/webhooks/${id(endpointId)}/replay`,
      json: input,
      options: requestOptions(options),
    });
  }
}
