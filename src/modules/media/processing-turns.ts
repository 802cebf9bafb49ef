// Turns at image processing: at most `limit` images are decoded and re-encoded at once in this
// process, so image work never holds every thread of libuv's pool (which also reads the files
// served under /media) nor every core. Uploads beyond the limit wait in one queue per store, and
// a freed turn goes to the stores in rotation: a store with many uploads waiting gets one turn in
// each round, so another store's upload waits behind at most one image of each busy store, not
// behind the whole queue. A wait is bounded; past it the upload is refused (answered as
// retryable) rather than held while its body sits in memory.
import type { Timers } from '../../lib/timers.js';

/** The wait for a turn ran out: every turn stayed taken for `waitedMs`. */
export class NoTurnInTime extends Error {
  constructor(readonly waitedMs: number) {
    super(`no image processing turn became free within ${waitedMs} ms`);
    this.name = 'NoTurnInTime';
  }
}

/** Gives a turn back; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
  /** The wait's limit, cleared through the same timers when the turn comes first. */
  timers: Timers;
  timer: unknown;
}

export class ProcessingTurns {
  private running = 0;
  /** Waiting uploads by owner (a store); an owner is listed only while it has some. */
  private readonly queues = new Map<string, Waiter[]>();
  /** Owners with waiters, in the order they get the next turns (the rotation). */
  private rotation: string[] = [];

  constructor(
    readonly limit: number,
    readonly maxWaitMs: number,
  ) {
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new RangeError(`limit must be a positive integer, got ${limit}`);
    if (!Number.isSafeInteger(maxWaitMs) || maxWaitMs < 1)
      throw new RangeError(`maxWaitMs must be a positive integer, got ${maxWaitMs}`);
  }

  /** Images being processed now (never above `limit`). */
  get inProgress(): number {
    return this.running;
  }

  /** Uploads waiting for a turn, all owners together. */
  get waiting(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.length;
    return count;
  }

  /**
   * Settles with a turn for `owner` (release it when the work ends, whatever happens), or rejects
   * with NoTurnInTime once `maxWaitMs` has passed on `timers` without one.
   */
  acquire(owner: string, timers: Timers): Promise<Release> {
    if (this.running < this.limit && this.rotation.length === 0) return Promise.resolve(this.take());
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        timers,
        timer: timers.setTimeout(() => {
          this.forget(owner, waiter);
          reject(new NoTurnInTime(this.maxWaitMs));
        }, this.maxWaitMs),
      };
      const queue = this.queues.get(owner);
      if (queue) queue.push(waiter);
      else {
        this.queues.set(owner, [waiter]);
        this.rotation.push(owner);
      }
    });
  }

  private take(): Release {
    this.running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.handOut();
    };
  }

  /** Gives free turns to the owners in rotation, one waiter each, the served owner moving last. */
  private handOut(): void {
    while (this.running < this.limit && this.rotation.length > 0) {
      const owner = this.rotation.shift() as string;
      const queue = this.queues.get(owner) as Waiter[];
      const waiter = queue.shift() as Waiter;
      if (queue.length > 0) this.rotation.push(owner);
      else this.queues.delete(owner);
      waiter.timers.clearTimeout(waiter.timer);
      waiter.grant(this.take());
    }
  }

  private forget(owner: string, waiter: Waiter): void {
    const queue = this.queues.get(owner);
    if (!queue) return;
    const at = queue.indexOf(waiter);
    if (at === -1) return;
    queue.splice(at, 1);
    if (queue.length === 0) {
      this.queues.delete(owner);
      this.rotation = this.rotation.filter((o) => o !== owner);
    }
  }
}
