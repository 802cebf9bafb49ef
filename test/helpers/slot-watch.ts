// Observes, without changing anything, the in-flight slots the pipeline takes and gives back:
// `ctx.traffic` is read on every request, so wrapping it sees each acquisition and release as it
// happens. A test that holds a request open waits on this signal before probing, instead of
// racing the held request for the slot with its probes, and waits for a slot to come back
// without polling.
import assert from 'node:assert/strict';
import type { AppContext } from '../../src/context.js';

export const keyIdOf = (key: string): string => key.slice('svc_live_'.length, 'svc_live_'.length + 8);

export interface SlotWatch {
  /** Slots of this key id taken through the context since watching began and not yet given back. */
  held(keyId: string): number;
  /** Settles at the key's next slot acquisition (takes the key itself). */
  acquired(key: string): Promise<void>;
  /**
   * Settles once `condition` holds, checked now and after every slot taken or given back. The
   * deadline is no wait: it only turns a hang into a failure naming `what`.
   */
  until(what: string, condition: () => boolean, deadlineMs?: number): Promise<void>;
  /** Puts the context's own traffic control back. */
  restore: () => void;
}

export function watchSlots(ctx: AppContext): SlotWatch {
  const inner = ctx.traffic;
  const held = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();
  const onChange = new Set<() => void>();
  const changed = (keyId: string, delta: number) => {
    held.set(keyId, (held.get(keyId) ?? 0) + delta);
    if (delta > 0) for (const resolve of waiting.get(keyId)?.splice(0) ?? []) resolve();
    for (const check of [...onChange]) check();
  };
  /** A slot taken (null: refused), counted until its release has run. */
  const watched = <R extends (() => Promise<void>) | null>(keyId: string, release: R): R => {
    if (release === null) return release;
    changed(keyId, 1);
    let released = false;
    return (async () => {
      await release();
      if (!released) changed(keyId, -1);
      released = true;
    }) as R;
  };
  ctx.traffic = {
    backend: inner.backend,
    check: () => inner.check(),
    async acquireSlot(keyId, max) {
      return watched(keyId, await inner.acquireSlot(keyId, max));
    },
    // PostgreSQL with Redis admits a cached key (rate, slot and versions) in one call.
    async admit(request) {
      const admission = await inner.admit(request);
      return { ...admission, release: watched(request.keyId, admission.release) };
    },
    commandCount: () => inner.commandCount(),
    redis: inner.redis,
    close: () => inner.close(),
  };
  return {
    held: (keyId) => held.get(keyId) ?? 0,
    acquired: (key) =>
      new Promise<void>((resolve) => {
        const keyId = keyIdOf(key);
        waiting.set(keyId, [...(waiting.get(keyId) ?? []), resolve]);
      }),
    until: (what, condition, deadlineMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        const done = () => {
          onChange.delete(check);
          clearTimeout(deadline);
        };
        const check = () => {
          if (!condition()) return;
          done();
          resolve();
        };
        const deadline = setTimeout(() => {
          done();
          reject(new assert.AssertionError({ message: `timed out waiting until ${what}` }));
        }, deadlineMs);
        onChange.add(check);
        check();
      }),
    restore: () => {
      ctx.traffic = inner;
    },
  };
}
