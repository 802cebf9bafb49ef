// A wait bounded from the caller's own start, whatever the work waits behind.

/**
 * Rejects when `work` has not settled within `ms` (with `Error(reason)`, or the error `reason`
 * makes); the work itself goes on, and its own later failure is handled by the race.
 */
export function within<T>(work: Promise<T>, ms: number, reason: string | (() => Error)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(typeof reason === 'string' ? new Error(reason) : reason()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
