// How domain code reports the durations an operator watches (image processing, variants, the HTML filter)
// without knowing about metrics: modules call an Observer; the HTTP layer turns the calls into
// Prometheus metrics. Several apps can listen to one context (tests build more than one).

/** Work whose duration is reported. */
export type TimedWork = 'image_processing' | 'image_variant' | 'html_filter';

/** How the work ended: done, refused as the client's fault (bad image, bad nesting), or failed. */
export type WorkOutcome = 'ok' | 'rejected' | 'error';

export interface Observer {
  timed(work: TimedWork, seconds: number, outcome: WorkOutcome): void;
}

export const noObserver: Observer = { timed: () => undefined };

/** Passes every observation to each listener added; a listener is removed by the function returned. */
export class Observers implements Observer {
  private readonly listeners = new Set<Observer>();

  add(listener: Observer): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  timed(work: TimedWork, seconds: number, outcome: WorkOutcome): void {
    for (const listener of this.listeners) listener.timed(work, seconds, outcome);
  }
}

/** Runs `work`, reporting its duration; `isRejection` tells a client's fault from a failure. */
export async function timeWork<T>(
  observer: Observer,
  work: TimedWork,
  run: () => Promise<T>,
  isRejection: (err: unknown) => boolean,
): Promise<T> {
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  try {
    const result = await run();
    observer.timed(work, seconds(), 'ok');
    return result;
  } catch (err) {
    observer.timed(work, seconds(), isRejection(err) ? 'rejected' : 'error');
    throw err;
  }
}
