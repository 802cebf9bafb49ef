// Preloaded into the API server by the benchmark (with --expose-gc): on SIGUSR2 it runs a full
// garbage collection and prints the memory left, so that a leak shows as live heap that grows
// from one repetition to the next, apart from when the collector happens to run.
let reports = 0;
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  process.stderr.write(`BENCH_MEMORY_AFTER_GC ${JSON.stringify({ n: ++reports, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, rss: m.rss })}\n`);
});
