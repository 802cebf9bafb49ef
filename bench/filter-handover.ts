// What handing a create's body to the filter's worker thread costs, against filtering it in
// place (docs/performance.md, "What the machine's CPU allows"): the corpus's 64 bodies filtered
// in place on the main thread, then through a pool of one thread running the service's own
// worker module (src/modules/posts/html-filter-worker.ts), 32 bodies in flight as under the
// benchmark's 32 connections. CPU µs a body: the main thread's, and the whole process's, so the
// worker's is their difference.
//   node --import tsx bench/filter-handover.ts [COUNT]
import { Piscina } from 'piscina';
import { cpus, loadavg } from 'node:os';
import { sanitizePostHtml } from '../src/modules/posts/html-filter.js';
import { corpusBodies } from './lib/corpus.js';

const count = Number(process.argv[2] ?? 20_000);
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write('usage: node --import tsx bench/filter-handover.ts [COUNT]\n');
  process.exit(2);
}
const bodies = corpusBodies();
const micros = (u: NodeJS.CpuUsage) => u.user + u.system;

function inPlace(): { main: number; process: number } {
  for (let i = 0; i < 2_000; i++) sanitizePostHtml(bodies[i % bodies.length]);
  const thread = process.threadCpuUsage();
  const whole = process.cpuUsage();
  for (let i = 0; i < count; i++) sanitizePostHtml(bodies[i % bodies.length]);
  return { main: micros(process.threadCpuUsage(thread)) / count, process: micros(process.cpuUsage(whole)) / count };
}

async function onThread(concurrentTasksPerWorker: number): Promise<{ main: number; process: number }> {
  const pool = new Piscina({
    filename: new URL('../src/modules/posts/html-filter-worker.ts', import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
    concurrentTasksPerWorker,
  });
  const run = async (n: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < n) await pool.run(bodies[next++ % bodies.length]);
      }),
    );
  };
  await run(2_000);
  const thread = process.threadCpuUsage();
  const whole = process.cpuUsage();
  await run(count);
  const figures = {
    main: micros(process.threadCpuUsage(thread)) / count,
    process: micros(process.cpuUsage(whole)) / count,
  };
  await pool.destroy();
  return figures;
}

const rows: Array<[string, { main: number; process: number }]> = [
  ['in place', inPlace()],
  ['on one worker thread (the service’s pool: one task at a time)', await onThread(1)],
  ['on one worker thread, 8 tasks queued at the worker', await onThread(8)],
];
console.log(`${count} corpus bodies; ${cpus().length} CPUs, node ${process.version}; load ${loadavg()[0].toFixed(2)}`);
console.log('| filtered | main thread µs a body | worker µs a body | process µs a body |');
console.log('|---|---:|---:|---:|');
for (const [label, f] of rows)
  console.log(
    `| ${label} | ${f.main.toFixed(0)} | ${label === 'in place' ? '–' : (f.process - f.main).toFixed(0)} | ${f.process.toFixed(0)} |`,
  );
