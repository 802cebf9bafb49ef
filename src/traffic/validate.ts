import type { RateClass } from './types.js';

// Bad arguments are programming errors in the HTTP layer, so they throw instead of failing open.

export function assertKeyId(keyId: string): void {
  if (typeof keyId !== 'string' || keyId.length === 0) {
    throw new TypeError('keyId must be a non-empty string');
  }
}

export function assertRateClass(rateClass: RateClass): void {
  if (rateClass !== 'read' && rateClass !== 'write') {
    throw new TypeError(`rateClass must be 'read' or 'write', got ${String(rateClass)}`);
  }
}

/** Limits are whole numbers; 0 is allowed and means "always refuse". */
export function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${String(value)}`);
  }
}
