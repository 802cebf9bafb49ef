// Cost bounds measured in this process's CPU time rather than elapsed time: other processes
// loading a shared machine stretch the wall clock, not the work done here. (Time rules are
// another matter: those run on the injected clock and mocked timers.)

/** Runs `work` and returns its result with the CPU milliseconds this process spent meanwhile (all threads). */
export async function withCpuTime<T>(work: () => T | Promise<T>): Promise<{ result: T; cpuMs: number }> {
  const start = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(start);
  return { result, cpuMs: (used.user + used.system) / 1000 };
}
