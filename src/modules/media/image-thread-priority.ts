// Image work yields the CPU to serving: on Linux, the threads libvips decodes and encodes on run
// at a lower scheduling priority (nice 10) than the rest of the process. The processing cap
// bounds how many cores image work can take; this makes the scheduler serve the event loop and
// the file reads first when the machine is busy, so a store's uploads slow its own processing,
// not another store's reads. A nice value is a per-thread attribute on Linux (setpriority(2)),
// and libvips names its threads, so they are found by name; elsewhere nothing is changed.
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** What libvips calls its worker threads (/proc/<pid>/task/<tid>/comm). */
const IMAGE_THREAD_NAME = 'libvips worker';
export const IMAGE_THREAD_NICE = 10;

/** Lowers the priority of every libvips thread that does not have it yet (new ones start at the process's). */
export function lowerImageThreadPriority(): void {
  let threads: string[];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    return; // not Linux
  }
  for (const thread of threads) {
    try {
      if (readFileSync(`/proc/self/task/${thread}/comm`, 'utf8').trim() !== IMAGE_THREAD_NAME) continue;
      const id = Number(thread);
      if (getPriority(id) < IMAGE_THREAD_NICE) setPriority(id, IMAGE_THREAD_NICE);
    } catch {
      // The thread ended meanwhile.
    }
  }
}
