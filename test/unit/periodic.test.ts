// The periodic-job runner (src/lib/periodic.ts) on timers the test fires by hand: waits and
// jitter, no overlapping runs, stop() waiting for a run in progress, failures logged with the
// job's name, counted, and followed by the next run.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { PeriodicJobs, type JobLog, type PeriodicJob } from '../../src/lib/periodic.js';

function manualTimers() {
  const waits: Array<{ ms: number; run: () => void; cleared: boolean }> = [];
  return {
    waits,
    /** Waits neither fired nor cleared. */
    pending: () => waits.filter((w) => !w.cleared && w.run !== fired),
    timers: {
      setTimeout: (run: () => void, ms: number) => waits.push({ ms, run, cleared: false }) - 1,
      clearTimeout: (handle: unknown) => {
        waits[handle as number]!.cleared = true;
      },
    },
    fire(index: number) {
      const wait = waits[index]!;
      assert.equal(wait.cleared, false, 'a cleared wait never fires');
      const run = wait.run;
      wait.run = fired;
      run();
    },
  };
}
const fired = () => undefined;

/** A run the test ends by hand. */
function gate() {
  let open!: () => void;
  let fail!: (err: Error) => void;
  const done = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { done, open, fail };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Runs and failures by job (the last success is checked on its own below). */
const runsAndFailures = (jobs: PeriodicJobs) =>
  Object.fromEntries(Object.entries(jobs.counts()).map(([name, { runs, failures }]) => [name, { runs, failures }]));

function recordingLog() {
  const lines: Array<{ details: Record<string, unknown>; message: string }> = [];
  const log: JobLog = {
    info: () => undefined,
    warn: (details, message) => lines.push({ details: details as Record<string, unknown>, message }),
  };
  return { lines, log };
}

it('waits its first delay, then its interval after each run ends', async () => {
  const clock = manualTimers();
  let runs = 0;
  const jobs = new PeriodicJobs([{ name: 'tick', intervalMs: 1000, firstDelayMs: 0, run: async () => void runs++ }], {
    timers: clock.timers,
  });
  jobs.start();
  assert.deepEqual(
    clock.waits.map((w) => w.ms),
    [0],
  );
  clock.fire(0);
  await turns();
  assert.equal(runs, 1);
  assert.deepEqual(
    clock.waits.map((w) => w.ms),
    [0, 1000],
  );
  clock.fire(1);
  await turns();
  assert.equal(runs, 2);
  assert.deepEqual(runsAndFailures(jobs), { tick: { runs: 2, failures: 0 } });
  await jobs.stop();
  assert.equal(clock.pending().length, 0, 'stop cleared the wait');
});

it('never starts a run while the previous one is running: the next wait begins when it ends', async () => {
  const clock = manualTimers();
  const runs: Array<ReturnType<typeof gate>> = [];
  const job: PeriodicJob = {
    name: 'slow',
    intervalMs: 1000,
    run: () => {
      const run = gate();
      runs.push(run);
      return run.done;
    },
  };
  const jobs = new PeriodicJobs([job], { timers: clock.timers });
  jobs.start();
  clock.fire(0);
  await turns();
  assert.equal(runs.length, 1);
  assert.equal(clock.pending().length, 0, 'no wait is running while the run is');
  jobs.start();
  await turns();
  assert.equal(runs.length, 1, 'starting again starts nothing');
  runs[0]!.open();
  await turns();
  assert.equal(clock.pending().length, 1);
  assert.equal(runs.length, 1);
  await jobs.stop();
});

it('stop() cancels the waits, asks the run in progress to end, and waits for it', async () => {
  const clock = manualTimers();
  const run = gate();
  let cancelled = 0;
  const jobs = new PeriodicJobs(
    [
      { name: 'busy', intervalMs: 10, run: () => run.done, cancel: () => void cancelled++ },
      { name: 'idle', intervalMs: 10, run: async () => undefined },
    ],
    { timers: clock.timers },
  );
  jobs.start();
  clock.fire(0);
  await turns();
  let stopped = false;
  const stopping = jobs.stop().then(() => (stopped = true));
  await turns();
  assert.equal(cancelled, 1);
  assert.equal(stopped, false, 'stop waits for the run in progress');
  assert.equal(clock.waits[1]!.cleared, true, "the other job's wait was cleared");
  run.open();
  await stopping;
  assert.equal(clock.pending().length, 0, 'nothing is scheduled after stop');
  jobs.start();
  assert.equal(clock.pending().length, 0, 'a stopped runner stays stopped');
});

it('a failed run is logged with the job name and counted, and the job runs again', async () => {
  const clock = manualTimers();
  const { lines, log } = recordingLog();
  let calls = 0;
  const jobs = new PeriodicJobs(
    [
      {
        name: 'flaky',
        intervalMs: 500,
        run: async () => {
          calls++;
          if (calls === 1) throw new Error('database away');
        },
      },
    ],
    { timers: clock.timers },
  );
  jobs.start(log);
  clock.fire(0);
  await turns();
  assert.equal(lines.length, 1);
  assert.equal(lines[0]!.message, 'flaky failed; it runs again at its next interval');
  assert.equal(lines[0]!.details.job, 'flaky');
  assert.equal((lines[0]!.details.err as Error).message, 'database away');
  assert.deepEqual(runsAndFailures(jobs), { flaky: { runs: 1, failures: 1 } });
  assert.deepEqual(
    clock.pending().map((w) => w.ms),
    [500],
  );
  clock.fire(1);
  await turns();
  assert.equal(calls, 2);
  assert.deepEqual(runsAndFailures(jobs), { flaky: { runs: 2, failures: 1 } });
  await jobs.stop();
});

it('a job with a report of its own gets its failures instead of the log; a report that throws stops nothing', async () => {
  const clock = manualTimers();
  const { lines, log } = recordingLog();
  const reported: unknown[] = [];
  const jobs = new PeriodicJobs(
    [
      {
        name: 'reported',
        intervalMs: 100,
        run: async () => {
          throw new Error('redis away');
        },
        report: (err) => {
          reported.push(err);
          throw new Error('report broke');
        },
      },
    ],
    { timers: clock.timers },
  );
  jobs.start(log);
  clock.fire(0);
  await turns();
  assert.equal(reported.length, 1);
  assert.equal(lines.length, 0);
  assert.equal(clock.pending().length, 1, 'the job carries on');
  await jobs.stop();
});

it('atStart runs at once, under the same rules, and the first wait follows it', async () => {
  const clock = manualTimers();
  const { lines, log } = recordingLog();
  const jobs = new PeriodicJobs(
    [
      {
        name: 'startup',
        intervalMs: 700,
        atStart: async () => {
          throw new Error('leftovers unreadable');
        },
        run: async () => undefined,
      },
    ],
    { timers: clock.timers },
  );
  jobs.start(log);
  assert.equal(clock.waits.length, 0, 'no wait before the start work ends');
  await turns();
  assert.equal(lines[0]!.details.job, 'startup');
  assert.deepEqual(
    clock.waits.map((w) => w.ms),
    [700],
  );
  await jobs.stop();
});

it('jitter adds between 0 and jitterMs to every wait', async () => {
  for (const [random, extra] of [
    [0, 0],
    [0.5, 50],
    [0.999999, 100],
  ] as const) {
    const clock = manualTimers();
    const jobs = new PeriodicJobs(
      [{ name: 'spread', intervalMs: 1000, firstDelayMs: 10, jitterMs: 100, run: async () => undefined }],
      { timers: clock.timers, random: () => random },
    );
    jobs.start();
    clock.fire(0);
    await turns();
    assert.deepEqual(
      clock.waits.map((w) => w.ms),
      [10 + extra, 1000 + extra],
      `random ${random}`,
    );
    await jobs.stop();
  }
});

it('refuses two jobs of one name, and names the job it cannot find', () => {
  const job = { name: 'twice', intervalMs: 1, run: async () => undefined };
  assert.throws(() => new PeriodicJobs([job, job]), /distinct names/);
  assert.throws(() => new PeriodicJobs([job]).job('other'), /no periodic job named other/);
});

it('keeps when each job last succeeded (for /metrics), and a failure leaves it', async () => {
  const clock = manualTimers();
  let now = 1_000;
  let failNext = false;
  const jobs = new PeriodicJobs(
    [
      {
        name: 'tick',
        intervalMs: 1000,
        firstDelayMs: 0,
        run: async () => {
          if (failNext) throw new Error('no');
        },
        report: () => undefined,
      },
    ],
    { timers: clock.timers, now: () => now },
  );
  assert.deepEqual(jobs.counts().tick, { runs: 0, failures: 0, lastSuccessAtMs: null });
  jobs.start();
  clock.fire(0);
  await turns();
  assert.deepEqual(jobs.counts().tick, { runs: 1, failures: 0, lastSuccessAtMs: 1_000 });
  now = 5_000;
  failNext = true;
  clock.fire(1);
  await turns();
  assert.deepEqual(jobs.counts().tick, { runs: 2, failures: 1, lastSuccessAtMs: 1_000 });
  await jobs.stop();
});

it('stop() drains every job after its run in progress has ended, and before it resolves', async () => {
  const clock = manualTimers();
  const order: string[] = [];
  const run = gate();
  const jobs = new PeriodicJobs(
    [
      {
        name: 'sender',
        intervalMs: 1000,
        firstDelayMs: 0,
        run: async () => {
          await run.done;
          order.push('run ended');
        },
        drain: async () => void order.push('sender drained'),
      },
      { name: 'flusher', intervalMs: 1000, run: async () => undefined, drain: async () => void order.push('flushed') },
    ],
    { timers: clock.timers },
  );
  jobs.start();
  clock.fire(0);
  await turns();
  const stopping = jobs.stop().then(() => order.push('stopped'));
  await turns();
  assert.deepEqual(order, [], 'no drain while a run is in progress');
  run.open();
  await stopping;
  assert.deepEqual(order, ['run ended', 'sender drained', 'flushed', 'stopped']);
});
