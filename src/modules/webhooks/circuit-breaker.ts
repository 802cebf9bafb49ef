// An endpoint that keeps timing out stops taking sending slots (docs/webhooks.md, "Fairness"):
// after CIRCUIT_TIMEOUTS attempts in a row with no answer in time its circuit opens for
// CIRCUIT_OPEN_MS, during which none of its deliveries is claimed (they wait, and are not
// counted as attempts). When it closes the next attempt is a trial: an answer (any status)
// closes it for good, another timeout opens it again at once.
import type { Db } from '../../db/database.js';
import { closeCircuit, countTimeout } from './webhook-repository.js';

export const CIRCUIT_TIMEOUTS = 3;
export const CIRCUIT_OPEN_MS = 5 * 60_000;

/** Records one attempt's outcome on its endpoint: `timedOut` when no answer came in time. */
export async function recordAttemptForCircuit(
  trx: Db,
  endpointId: string,
  timedOut: boolean,
  now: number,
): Promise<void> {
  if (timedOut) await countTimeout(trx, endpointId, CIRCUIT_TIMEOUTS, now + CIRCUIT_OPEN_MS);
  else await closeCircuit(trx, endpointId);
}
