// Webhook recovery: a delivery with every attempt, a new attempt of a finished delivery, and a
// replay of the feed's events of a time range. Not retried on failure: each call queues work.
import type { components } from './generated/openapi.js';

export type DeliveryDetail = components['schemas']['DeliveryDetail'];
export type DeliveryAttempt = components['schemas']['DeliveryAttempt'];
export type WebhookReplay = components['schemas']['WebhookReplay'];
export type WebhookReplayResult = components['schemas']['WebhookReplayResult'];
type Delivery = components['schemas']['Delivery'];

const id = (value: string) => encodeURIComponent(value);

/** One call through the client (retries and errors as client.ts handles them). */
type Send = (call: { method: 'GET' | 'POST'; path: string; json?: unknown }) => Promise<{ body: unknown }>;

export function deliveryCalls(send: Send) {
  return {
    /** The delivery and its attempt_history: time, duration, status, error, first 1 KB of each answer. */
    getDelivery: async (endpointId: string, deliveryId: string): Promise<DeliveryDetail> =>
      (await send({ method: 'GET', path: `/v1/webhooks/${id(endpointId)}/deliveries/${id(deliveryId)}` })).body as DeliveryDetail,
    /** A new delivery of the same event (same webhook-id), due now; the delivery must have succeeded or failed. */
    retryDelivery: async (endpointId: string, deliveryId: string): Promise<Delivery> =>
      (await send({ method: 'POST', path: `/v1/webhooks/${id(endpointId)}/deliveries/${id(deliveryId)}/retry` })).body as Delivery,
    /** Queues every event of the feed from `since` to `until` (default now) again; at most 10,000. */
    replay: async (endpointId: string, input: WebhookReplay): Promise<WebhookReplayResult> =>
      (await send({ method: 'POST', path: `/v1/webhooks/${id(endpointId)}/replay`, json: input })).body as WebhookReplayResult,
  };
}
