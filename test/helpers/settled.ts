// Waiting for work already under way (a write started by a timer the test fired, a response
// being sent) without letting any time pass: the event loop runs, I/O completes, mocked timers
// stay where the test put them.

/**
 * Whether `condition` comes true while the event loop turns up to `turns` times (each turn lets
 * pending I/O and callbacks run). Never sleeps: no timer is involved.
 */
export async function settled(condition: () => boolean | Promise<boolean>, turns = 5000): Promise<boolean> {
  for (let i = 0; i < turns; i++) {
    if (await condition()) return true;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return condition();
}
