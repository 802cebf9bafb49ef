// Background work that repeats (housekeeping, webhook delivery polls, the cache-version
// reconcile, page-view flushes), run in one way: each job waits its interval (plus jitter) after
// the previous run ended, so a run never starts while the previous one is running; a run that
// fails is logged with the job's name, counted, and the job carries on at its next interval;
// stop() cancels the waits, waits for the runs in progress, then lets each job finish what it
// started outside its runs (in-flight webhook sends, the last page-view flush), so stopping the
// jobs is the one path that drains every piece of background work. Runs, failures and the last
// success of each job are kept for /metrics. The app lists its jobs once, in src/context.ts; the
// server starts them.
import { systemTimers, type Timers } from './timers.js';

/** Where runs report (the server's logger fits). */
export interface JobLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface PeriodicJob {
  /** Names the job in logs and counts. */
  name: string;
  /** Wait between the end of one run and the start of the next. */
  intervalMs: number;
  /** Wait before the first run (default: intervalMs). */
  firstDelayMs?: number;
  /**
   * Up to this many milliseconds added at random to every wait, so instances started together
   * do not run together (default 0).
   */
  jitterMs?: number;
  /** One run. */
  run(log: JobLog): Promise<unknown>;
  /** Runs once when the job starts, before its first wait (same rules as a run). */
  atStart?(log: JobLog): Promise<unknown>;
  /** Called by stop() before it waits: asks a run in progress to end early. */
  cancel?(): void;
  /** Reports a failed run instead of the log (a job whose errors already have a rate-limited report). */
  report?(err: unknown): void;
  /** Called by stop() once the runs have ended: finishes work the job started outside its runs. */
  drain?(): Promise<void>;
}

export interface JobCounts {
  runs: number;
  failures: number;
  /** When the last run that succeeded ended (ms since the epoch); null before any. */
  lastSuccessAtMs: number | null;
}

const quietLog: JobLog = { info: () => undefined, warn: () => undefined };

interface JobState {
  job: PeriodicJob;
  counts: JobCounts;
  timer: unknown;
  running: Promise<void> | null;
}

export class PeriodicJobs {
  private readonly states: JobState[];
  private readonly timers: Timers;
  private readonly random: () => number;
  private log: JobLog = quietLog;
  private started = false;
  private stopped = false;

  private readonly now: () => number;

  constructor(
    jobs: readonly PeriodicJob[],
    options: { timers?: Timers; random?: () => number; now?: () => number } = {},
  ) {
    const names = new Set(jobs.map((job) => job.name));
    if (names.size !== jobs.length) throw new Error('periodic jobs need distinct names');
    this.states = jobs.map((job) => ({
      job,
      counts: { runs: 0, failures: 0, lastSuccessAtMs: null },
      timer: null,
      running: null,
    }));
    this.timers = options.timers ?? systemTimers;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /** The job of this name (tests run one job on timers of their own). */
  job(name: string): PeriodicJob {
    const state = this.states.find((s) => s.job.name === name);
    if (!state) throw new Error(`no periodic job named ${name}`);
    return state.job;
  }

  /**
   * Runs the named job once now, counted as any run (a run already in progress is waited for
   * instead). On a runner not started, nothing is scheduled after it.
   */
  async runOnce(name: string): Promise<void> {
    const state = this.states.find((s) => s.job.name === name);
    if (!state) throw new Error(`no periodic job named ${name}`);
    if (state.running === null) this.runNow(state, () => state.job.run(this.log));
    await state.running;
  }

  /** Runs and failures so far, by job name. */
  counts(): Record<string, JobCounts> {
    return Object.fromEntries(this.states.map((s) => [s.job.name, { ...s.counts }]));
  }

  /** Starts every job; once only (a stopped runner stays stopped). */
  start(log: JobLog = quietLog): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.log = log;
    for (const state of this.states) {
      const { job } = state;
      if (job.atStart) this.runNow(state, () => job.atStart!(log));
      else this.schedule(state, job.firstDelayMs ?? job.intervalMs);
    }
  }

  /** Cancels every wait, asks runs in progress to end early, waits for them, then drains every job. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const state of this.states) {
      if (state.timer !== null) this.timers.clearTimeout(state.timer);
      state.timer = null;
      state.job.cancel?.();
    }
    await Promise.all(this.states.flatMap((s) => (s.running ? [s.running] : [])));
    await Promise.all(this.states.flatMap((s) => (s.job.drain ? [s.job.drain()] : [])));
  }

  /** The wait before a run: the given delay plus up to jitterMs. */
  delayOf(job: PeriodicJob, base: number): number {
    const jitter = job.jitterMs ?? 0;
    return base + Math.floor(this.random() * (jitter + 1));
  }

  private schedule(state: JobState, base: number): void {
    if (this.stopped || !this.started) return;
    state.timer = this.timers.setTimeout(
      () => {
        state.timer = null;
        this.runNow(state, () => state.job.run(this.log));
      },
      this.delayOf(state.job, base),
    );
  }

  /** Starts a run; the next wait begins only when it has ended, so runs never overlap. */
  private runNow(state: JobState, work: () => Promise<unknown>): void {
    if (state.running !== null || this.stopped) return;
    state.counts.runs += 1;
    state.running = Promise.resolve()
      .then(work)
      .then(
        () => {
          state.counts.lastSuccessAtMs = this.now();
        },
        (err: unknown) => this.fail(state, err),
      )
      .finally(() => {
        state.running = null;
        this.schedule(state, state.job.intervalMs);
      });
  }

  private fail(state: JobState, err: unknown): void {
    state.counts.failures += 1;
    try {
      if (state.job.report) state.job.report(err);
      else
        this.log.warn(
          { err, job: state.job.name, failures: state.counts.failures },
          `${state.job.name} failed; it runs again at its next interval`,
        );
    } catch {
      // A report that throws must not stop the job.
    }
  }
}
