// Timers that background work (the webhook worker, the cache-version reconcile) and an upload's
// time limits wait with, injected so tests decide when time passes.
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: Timers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A pending wait never keeps a process alive on its own (an upload's connection does).
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
