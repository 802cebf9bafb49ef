// Timers a test moves by hand (src/lib/timers.ts): nothing fires until `tick` passes its time, and
// nothing else in the process is touched (unlike mocking the global setTimeout, which also
// catches every other component's timers started meanwhile and strands them when reset).
import type { Timers } from '../../src/lib/timers.js';

interface Wait {
  at: number;
  run: () => void;
}

export interface ManualTimers extends Timers {
  /** Moves time on by `ms`, firing every wait that falls due, in order. */
  tick(ms: number): void;
  /** Waits neither fired nor cleared. */
  pending(): number;
}

export function manualTimers(): ManualTimers {
  let now = 0;
  const waits = new Set<Wait>();
  return {
    setTimeout(run, ms) {
      const wait = { at: now + ms, run };
      waits.add(wait);
      return wait;
    },
    clearTimeout(handle) {
      waits.delete(handle as Wait);
    },
    tick(ms) {
      const until = now + ms;
      for (;;) {
        let next: Wait | undefined;
        for (const wait of waits) if (wait.at <= until && (!next || wait.at < next.at)) next = wait;
        if (!next) break;
        waits.delete(next);
        now = next.at;
        next.run();
      }
      now = until;
    },
    pending: () => waits.size,
  };
}
