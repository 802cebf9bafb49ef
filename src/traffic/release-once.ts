/**
 * Wraps a release action so only the first call runs it; later calls get the same promise.
 * The HTTP layer may release from several places (response finished, connection aborted),
 * and a double release would hand out a slot that is still in use.
 */
export function releaseOnce(release: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => {
    pending ??= release();
    return pending;
  };
}
