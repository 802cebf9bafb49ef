// The per-client-address allowance of a key that may sit in a public web page (a `read_published`
// key, docs/content-api.md "Limits"): anyone can copy such a key, so one visitor's address must
// not spend the whole per-key allowance of the store's storefront. It is counted like a key's own
// allowance, on the same backends (memory or Redis, so a fleet shares it), under a name made of
// the key and the address, and takes no in-flight slot (the key's own slot already bounds that).
import type { AdmitRequest, RateClass, RateDecision } from './types.js';

/** The admission of one request against the allowance of (key, client address). */
export function addressAdmission(
  keyId: string,
  address: string,
  rateClass: RateClass,
  limitPerMinute: number,
): AdmitRequest {
  return { keyId: `${keyId}@${address}`, rateClass, limitPerMinute, concurrency: 1, takeSlot: false };
}

/**
 * The decision a client is told about of two allowances that both apply: a refusal first (the one
 * that ends later, so a retry at its time is admitted by both), else the one with fewer left.
 */
export function tighterDecision(a: RateDecision, b: RateDecision): RateDecision {
  if (!a.allowed || !b.allowed) {
    if (a.allowed) return b;
    if (b.allowed) return a;
    return a.retryAfterSeconds >= b.retryAfterSeconds ? a : b;
  }
  return b.remaining < a.remaining ? b : a;
}
