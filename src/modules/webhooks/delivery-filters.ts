// The deliveries list's filters: status, event type (exact, or a `post.*` prefix) and creation time.
import { groupedNames, quotedInput } from '../../lib/name-list.js';
import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ApiError, detail } from '../../lib/api-error.js';
import { isEventType, WEBHOOK_EVENT_TYPES } from '../events/index.js';

export interface DeliveryFilters {
  status?: string;
  event_type?: string;
  since?: string;
  until?: string;
}

type DeliveryQuery<O> = SelectQueryBuilder<
  Database & { d: Database['webhook_deliveries']; ev: Database['webhook_events'] },
  'd' | 'ev',
  O
>;

export function filterDeliveries<O>(q: DeliveryQuery<O>, f: DeliveryFilters): DeliveryQuery<O> {
  if (f.status !== undefined) q = q.where('d.status', '=', f.status as 'pending');
  if (f.event_type !== undefined) {
    const type = f.event_type;
    const prefix = type.endsWith('.*') ? type.slice(0, -1) : null;
    if (prefix !== null ? !WEBHOOK_EVENT_TYPES.some((t) => t.startsWith(prefix)) : !isEventType(type)) {
      throw new ApiError('validation_failed', [
        detail(
          'event_type',
          `${quotedInput(type)} is not an event type; use one of ${groupedNames(WEBHOOK_EVENT_TYPES)}, or a prefix such as post.*`,
        ),
      ]);
    }
    q = prefix !== null ? q.where('ev.type', 'like', `${prefix}%`) : q.where('ev.type', '=', type);
  }
  if (f.since !== undefined) q = q.where('d.created_at', '>=', Date.parse(f.since));
  if (f.until !== undefined) q = q.where('d.created_at', '<', Date.parse(f.until));
  return q;
}
