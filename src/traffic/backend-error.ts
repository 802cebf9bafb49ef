/** What was being done when the shared store failed; lets logs say which limit was skipped. */
export type TrafficOperation = 'connection' | 'admit' | 'acquireSlot' | 'releaseSlot';

/** Reported through `onBackendError`; the original failure is kept as `cause`. */
export class TrafficBackendError extends Error {
  readonly operation: TrafficOperation;

  constructor(operation: TrafficOperation, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`traffic control backend failed during ${operation}: ${detail}`, { cause });
    this.name = 'TrafficBackendError';
    this.operation = operation;
  }
}

/** Builds a reporter that never throws: a faulty logger must not turn a fail-open into a 500. */
export function createReporter(onBackendError?: (err: unknown) => void) {
  return (operation: TrafficOperation, cause: unknown): void => {
    if (!onBackendError) return;
    try {
      onBackendError(new TrafficBackendError(operation, cause));
    } catch {
      // Deliberately ignored, see above.
    }
  };
}

export type Reporter = ReturnType<typeof createReporter>;
