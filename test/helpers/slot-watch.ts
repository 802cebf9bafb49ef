// Observes, without changing anything, the in-flight slots the pipeline takes: `ctx.traffic` is
// read on every request, so wrapping it sees each acquisition as it happens. A test that holds a
// request open waits on this signal before probing, instead of racing the held request for the
// slot with its probes.
import type { AppContext } from '../../src/context.js';

export const keyIdOf = (key: string): string => key.slice('svc_live_'.length, 'svc_live_'.length + 8);

export function watchSlots(ctx: AppContext): { acquired(key: string): Promise<void>; restore(): void } {
  const inner = ctx.traffic;
  const waiting = new Map<string, Array<() => void>>();
  const signal = (keyId: string) => {
    for (const resolve of waiting.get(keyId)?.splice(0) ?? []) resolve();
  };
  ctx.traffic = {
    backend: inner.backend,
    check: () => inner.check(),
    consumeRate: (keyId, rateClass, limit) => inner.consumeRate(keyId, rateClass, limit),
    async acquireSlot(keyId, max) {
      const release = await inner.acquireSlot(keyId, max);
      if (release) signal(keyId);
      return release;
    },
    async admit(request) {
      const admission = await inner.admit(request);
      if (admission.release) signal(request.keyId);
      return admission;
    },
    commandCount: () => inner.commandCount(),
    redis: inner.redis,
    close: () => inner.close(),
  };
  return {
    acquired: (key) =>
      new Promise<void>((resolve) => {
        const keyId = keyIdOf(key);
        waiting.set(keyId, [...(waiting.get(keyId) ?? []), resolve]);
      }),
    restore: () => {
      ctx.traffic = inner;
    },
  };
}
