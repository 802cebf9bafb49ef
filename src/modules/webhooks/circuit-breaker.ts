// An endpoint that keeps timing out stops taking sending slots (docs/webhooks.md, "Fairness"):
// after CIRCUIT_TIMEOUTS attempts in a row with no answer in time its circuit opens for
// CIRCUIT_OPEN_MS, during which none of its deliveries is claimed (they wait, and are not
// counted as attempts). When it closes the next attempt is a trial: an answer (any status)
// closes it for good, another timeout opens it again at once.
import type { Db } from '../../db/database.js';

export const CIRCUIT_TIMEOUTS = 3;
export const CIRCUIT_OPEN_MS = 5 * 60_000;

/** Records one attempt's outcome on its endpoint: `timedOut` when no answer came in time. */
export async function recordAttemptForCircuit(
  trx: Db,
  endpointId: string,
  timedOut: boolean,
  now: number,
): Promise<void> {
  if (!timedOut) {
    await trx
      .updateTable('webhook_endpoints')
      .set({ consecutive_timeouts: 0, circuit_open_until: null })
      .where('id', '=', endpointId)
      .where((eb) => eb.or([eb('consecutive_timeouts', '>', 0), eb('circuit_open_until', 'is not', null)]))
      .execute();
    return;
  }
  await trx
    .updateTable('webhook_endpoints')
    .set((eb) => ({ consecutive_timeouts: eb('consecutive_timeouts', '+', 1) }))
    .where('id', '=', endpointId)
    .execute();
  await trx
    .updateTable('webhook_endpoints')
    .set({ circuit_open_until: now + CIRCUIT_OPEN_MS })
    .where('id', '=', endpointId)
    .where('consecutive_timeouts', '>=', CIRCUIT_TIMEOUTS)
    .execute();
}
