// A circuit breaker for one dependency (Redis, PostgreSQL). A dependency that is slow or hung,
// rather than gone, makes every caller wait out its timeout; the breaker pays that wait a few
// times, then stops waiting: while it is open, callers fail at once (and serve what they can
// without the dependency), and one probe at a time asks the dependency in the background until
// it answers, which closes the breaker. Refusals (a closed port) cost nothing already, so only
// timeouts are counted; any success resets the count.
import { systemTimers, type Timers } from './timers.js';

export type BreakerState = 'closed' | 'open';

export interface CircuitBreakerOptions {
  /** The dependency's name, for metrics, logs and errors. */
  name: string;
  /** Timeouts in a row (no success between) that open the breaker. */
  threshold?: number;
  /** Time between two probes while open (and before the first). */
  probeIntervalMs?: number;
  /** Asks the dependency once, with its own time bound; resolves when it answered. */
  probe: () => Promise<unknown>;
  timers?: Timers;
}

export const DEFAULT_BREAKER_THRESHOLD = 3;
export const DEFAULT_PROBE_INTERVAL_MS = 1000;

/** Thrown (or rejected with) instead of waiting on a dependency whose breaker is open. */
export class CircuitOpenError extends Error {
  constructor(readonly dependency: string) {
    super(`${dependency}: circuit open (it did not answer in time); not waiting on it until a probe succeeds`);
    this.name = 'CircuitOpenError';
  }
}

export class CircuitBreaker {
  readonly name: string;
  private readonly threshold: number;
  private readonly probeIntervalMs: number;
  private readonly probe: () => Promise<unknown>;
  private readonly timers: Timers;
  private timeoutsInARow = 0;
  private open = false;
  private probeTimer: unknown = null;
  private stopped = false;
  private readonly listeners = new Set<(state: BreakerState) => void>();
  /** Times the breaker has opened (a counter for metrics). */
  opens = 0;
  /** Test hook: false turns the breaker off (it never opens), to show what it guards against. */
  enabled = true;

  constructor(options: CircuitBreakerOptions) {
    this.name = options.name;
    this.threshold = options.threshold ?? DEFAULT_BREAKER_THRESHOLD;
    this.probeIntervalMs = options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS;
    this.probe = options.probe;
    this.timers = options.timers ?? systemTimers;
  }

  get state(): BreakerState {
    return this.open ? 'open' : 'closed';
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** Called with the new state whenever it changes. */
  onChange(listener: (state: BreakerState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Throws CircuitOpenError while open: the caller must not wait on the dependency. */
  check(): void {
    if (this.open) throw new CircuitOpenError(this.name);
  }

  success(): void {
    this.timeoutsInARow = 0;
  }

  timeout(): void {
    this.timeoutsInARow += 1;
    if (!this.open && this.enabled && !this.stopped && this.timeoutsInARow >= this.threshold) this.trip();
  }

  /** Stops probing (the process is closing). */
  stop(): void {
    this.stopped = true;
    if (this.probeTimer !== null) this.timers.clearTimeout(this.probeTimer);
    this.probeTimer = null;
  }

  private trip(): void {
    this.open = true;
    this.opens += 1;
    this.emit('open');
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.stopped) return;
    this.probeTimer = this.timers.setTimeout(() => {
      this.probeTimer = null;
      void this.runProbe();
    }, this.probeIntervalMs);
  }

  private async runProbe(): Promise<void> {
    let answered = false;
    try {
      await this.probe();
      answered = true;
    } catch {
      // Still not answering: stay open and ask again later.
    }
    if (this.stopped) return;
    if (!answered) {
      this.scheduleProbe();
      return;
    }
    this.open = false;
    this.timeoutsInARow = 0;
    this.emit('closed');
  }

  private emit(state: BreakerState): void {
    for (const listener of this.listeners) {
      try {
        listener(state);
      } catch {
        // A faulty listener must not keep the breaker in the wrong state.
      }
    }
  }
}
